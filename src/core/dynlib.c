/* dynlib.c — opening a library on first use (see dynlib_internal.h). */
#include "core/dynlib_internal.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* One lock for every library: opens are rare and short. fork() takes it
 * too (pthread_atfork), so a child never inherits it held by a thread that
 * was in the middle of dlopen(): the child sees each library either open
 * or not tried, and may open it itself. */
static pthread_mutex_t open_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

static void lock_open(void)
{
    pthread_mutex_lock(&open_lock);
}

static void unlock_open(void)
{
    pthread_mutex_unlock(&open_lock);
}

static void register_atfork(void)
{
    pthread_atfork(lock_open, unlock_open, unlock_open);
}

static int failed(codec__dynlib *lib, const char *stage, codec_error *err)
{
    return codec_error_set(err, CODEC_E_UNSUPPORTED, 0, stage, CODEC_NO_OFFSET,
                           "%s could not be loaded: %s", lib->soname, lib->message);
}

/* dlopen() and every dlsym(); called with open_lock held. */
static void open_locked(codec__dynlib *lib)
{
    void *h = dlopen(lib->soname, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *why = dlerror();
        snprintf(lib->message, sizeof lib->message, "%s", why ? why : "dlopen failed");
        atomic_store_explicit(&lib->state, -1, memory_order_release);
        return;
    }
    for (size_t i = 0; i < lib->count; i++) {
        void *sym = dlsym(h, lib->symbols[i].name);
        if (!sym) {
            const char *why = dlerror();
            snprintf(lib->message, sizeof lib->message, "%s",
                     why ? why : lib->symbols[i].name);
            dlclose(h);
            atomic_store_explicit(&lib->state, -1, memory_order_release);
            return;
        }
        /* POSIX makes a data pointer from dlsym() usable as a function
         * pointer; the member has the function's type (CODEC__DYNLIB_MEMBER). */
        memcpy((char *)lib->table + lib->symbols[i].offset, &sym, sizeof sym);
    }
    atomic_store_explicit(&lib->state, 1, memory_order_release);
}

int codec__dynlib_open(codec__dynlib *lib, const char *stage, codec_error *err)
{
    int state = atomic_load_explicit(&lib->state, memory_order_acquire);
    if (state == 0) {
        pthread_once(&atfork_once, register_atfork);
        pthread_mutex_lock(&open_lock);
        if (atomic_load_explicit(&lib->state, memory_order_relaxed) == 0)
            open_locked(lib);
        pthread_mutex_unlock(&open_lock);
        state = atomic_load_explicit(&lib->state, memory_order_acquire);
    }
    return state == 1 ? CODEC_OK : failed(lib, stage, err);
}
