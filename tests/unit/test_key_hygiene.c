/* test_key_hygiene.c — where key material may and may not go (issue 21):
 *  - finding 4: every block that held a KEK is wiped before it is released,
 *    on success and on every error path. A test allocator scans each block
 *    the key ring releases (and OpenSSL's hooks each block OpenSSL frees)
 *    for the KEK's bytes and its hex text.
 *  - finding 5: a ring file not owned by the caller (or root), or in a
 *    directory that others may write without the sticky bit, is refused with
 *    a message that says how to fix it.
 *  - finding 8: data keys and nonces come from OpenSSL's private generator.
 *    RAND_bytes and RAND_priv_bytes are wrapped (this program defines them
 *    and forwards to libcrypto's), and sealing must never call the public
 *    one. */
#define _GNU_SOURCE
#include "check.h"
#include "codec/codec.h"
#include "transforms/crypto/crypto_internal.h"

#include <dlfcn.h>
#include <malloc.h>
#include <openssl/crypto.h>
#include <openssl/rand.h>
#include <stdatomic.h>
#include <sys/stat.h>
#include <unistd.h>

/* A KEK whose bytes appear nowhere else. */
#define SECRET_HEX "5ec2e7a1b0c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d"
#define OTHER_HEX "0101010101010101010101010101010101010101010101010101010101010101"
#define OTHER_UID 4242

static uint8_t secret[32];

static void hex_to_bytes(const char *hex, uint8_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        sscanf(hex + 2 * i, "%2x", &v);
        out[i] = (uint8_t)v;
    }
}

static bool holds_secret(const uint8_t *p, size_t n)
{
    static const char text[] = SECRET_HEX;
    /* Either half of the key, or either half of its text, is a find. */
    for (size_t i = 0; i + 16 <= n; i++) {
        if (memcmp(p + i, secret, 16) == 0 || memcmp(p + i, secret + 16, 16) == 0)
            return true;
        if (i + 32 <= n && (memcmp(p + i, text, 32) == 0 || memcmp(p + i, text + 32, 32) == 0))
            return true;
    }
    return false;
}

/* ---------------------------------------------------------------------------
 * Scanning allocators: codec's (the ring) and OpenSSL's (cipher contexts)
 * ------------------------------------------------------------------------ */

static size_t released, dirty_released;

static void *scan_alloc(void *ctx, size_t n)
{
    (void)ctx;
    return malloc(n);
}

static void *scan_resize(void *ctx, void *p, size_t old, size_t n)
{
    (void)ctx, (void)old;
    return realloc(p, n);
}

static void scan_release(void *ctx, void *p, size_t n)
{
    (void)ctx;
    released++;
    dirty_released += holds_secret(p, n);
    free(p);
}

static const codec_allocator scanning = {scan_alloc, scan_resize, scan_release, NULL};

static atomic_size_t ossl_freed, ossl_dirty;

static void *ossl_malloc(size_t n, const char *file, int line)
{
    (void)file, (void)line;
    return malloc(n);
}

static void *ossl_realloc(void *p, size_t n, const char *file, int line)
{
    (void)file, (void)line;
    return realloc(p, n);
}

static void ossl_free(void *p, const char *file, int line)
{
    (void)file, (void)line;
    if (p) {
        atomic_fetch_add(&ossl_freed, 1);
        if (holds_secret(p, malloc_usable_size(p)))
            atomic_fetch_add(&ossl_dirty, 1);
    }
    free(p);
}

/* ---------------------------------------------------------------------------
 * Finding 4: no KEK left in released memory
 * ------------------------------------------------------------------------ */

static char tmpdir[64];

static const char *write_file(const char *dir, const char *name, const char *text, mode_t mode)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    chmod(path, mode);
    return path;
}

/* Parses `text` (or loads it from a 0600 file) with the scanning allocator;
 * frees the ring if one was made. */
static void parse_and_release(const char *what, const char *text, bool from_file, bool ok)
{
    codec_error err;
    released = dirty_released = 0;
    codec_keyring *ring =
        from_file ? codec__keyring_load_with(write_file(tmpdir, "scan.ring", text, 0600),
                                             &scanning, &err)
                  : codec__keyring_parse_with(text, strlen(text), &scanning, &err);
    CHECK(ok == (ring != NULL));
    codec_keyring_free(ring);
    if (dirty_released || !released) {
        fprintf(stderr, "%s: %zu of %zu released blocks held the KEK\n", what, dirty_released,
                released);
        CHECK(0);
    }
}

static void test_released_memory(void)
{
    hex_to_bytes(SECRET_HEX, secret, sizeof secret);
    const struct {
        const char *what, *text;
        bool ok;
    } cases[] = {
        {"valid", "a " SECRET_HEX "\nb " OTHER_HEX "\n", true},
        {"duplicate id", "a " OTHER_HEX "\na " SECRET_HEX "\n", false},
        {"duplicate id first", "a " SECRET_HEX "\nb " OTHER_HEX "\na " OTHER_HEX "\n", false},
        {"bad line after", "a " SECRET_HEX "\nb 01\n", false},
        {"bad hex mid-key", "a 5ec2e7a1b0c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5cZZ\n",
         false},
        {"bad id after", "a " SECRET_HEX "\n\x01 " OTHER_HEX "\n", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (int file = 0; file < 2; file++)
            parse_and_release(cases[i].what, cases[i].text, file, cases[i].ok);

    /* Wrapping and unwrapping expand the KEK into OpenSSL cipher contexts:
     * those too are wiped when freed. */
    codec_error err;
    const char text[] = "a " SECRET_HEX "\n";
    codec_envelope_options o = {0};
    o.provider = codec_keyring_provider(codec_keyring_parse(text, sizeof text - 1, &err));
    codec *c = codec_envelope(&o, &err);
    CHECK(c != NULL);
    codec_buf out;
    codec_buf_init(&out, NULL);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_bytes in = {(const uint8_t *)"x", 1}, back;
    CHECK_INT(codec_encode(c, &in, &out, &err), 0);
    CHECK_INT(codec_decode(c, out.data, out.len, &back, &arena, &err), 0);
    size_t freed_before = atomic_load(&ossl_freed);
    codec_free(c);
    CHECK(atomic_load(&ossl_freed) > freed_before);
    CHECK_INT(atomic_load(&ossl_dirty), 0);
    codec_arena_free(&arena);
    codec_buf_free(&out);
}

/* ---------------------------------------------------------------------------
 * Finding 5: who may write the ring
 * ------------------------------------------------------------------------ */

#define RING_TEXT "k " OTHER_HEX "\n"

static void expect_refused(const char *path, const char *needle1, const char *needle2)
{
    codec_error err;
    codec_keyring *ring = codec_keyring_load(path, &err);
    CHECK(ring == NULL);
    codec_keyring_free(ring);
    if (ring)
        return;
    CHECK_INT(err.family, CODEC_E_USAGE);
    if (!strstr(err.message, needle1) || !strstr(err.message, needle2)) {
        fprintf(stderr, "ring error '%s' lacks '%s' or '%s'\n", err.message, needle1, needle2);
        CHECK(0);
    }
}

static void expect_loaded(const char *path)
{
    codec_error err;
    codec_keyring *ring = codec_keyring_load(path, &err);
    if (!ring)
        fprintf(stderr, "%s: %s\n", path, err.message);
    CHECK(ring != NULL);
    codec_keyring_free(ring);
}

static const char *subdir(const char *name, mode_t mode, uid_t owner)
{
    static char dir[4][200];
    static int next;
    char *d = dir[next++ % 4];
    snprintf(d, sizeof dir[0], "%s/%s", tmpdir, name);
    CHECK_INT(mkdir(d, 0700), 0);
    CHECK_INT(chmod(d, mode), 0);
    CHECK_INT(chown(d, owner, (gid_t)-1), 0);
    return d;
}

static void test_ownership(void)
{
    /* (Tests run as root: chown gives files to another user.) */
    const char *path = write_file(tmpdir, "theirs.ring", RING_TEXT, 0600);
    CHECK_INT(chown(path, OTHER_UID, (gid_t)-1), 0);
    expect_refused(path, "owned by uid 4242", "chown");
    expect_loaded(write_file(tmpdir, "mine.ring", RING_TEXT, 0600));

    /* A directory others may write: they can replace the ring. */
    const char *open_dir = subdir("open", 0777, 0);
    expect_refused(write_file(open_dir, "k.ring", RING_TEXT, 0600), "writable by group or others",
                   "chmod go-w");
    const char *group_dir = subdir("group", 0770, 0);
    expect_refused(write_file(group_dir, "k.ring", RING_TEXT, 0600),
                   "writable by group or others", "chmod go-w");
    /* ... unless the sticky bit keeps them from renaming what is not theirs */
    expect_loaded(write_file(subdir("sticky", 01777, 0), "k.ring", RING_TEXT, 0600));
    /* A directory owned by someone else: its owner can replace the ring. */
    expect_refused(write_file(subdir("foreign", 0755, OTHER_UID), "k.ring", RING_TEXT, 0600),
                   "owned by uid 4242", "directory");

    /* Every directory up to the root counts: open/inner is private, but
     * whoever can write `open` can rename `inner` away and put theirs. */
    char inner[256];
    snprintf(inner, sizeof inner, "%s/inner", open_dir);
    CHECK_INT(mkdir(inner, 0700), 0);
    expect_refused(write_file(inner, "k.ring", RING_TEXT, 0600), "writable by group or others",
                   open_dir);

    /* A symbolic link in a safe place to a ring in an unsafe one. */
    char link[256];
    snprintf(link, sizeof link, "%s/link.ring", tmpdir);
    CHECK_INT(symlink(write_file(open_dir, "target.ring", RING_TEXT, 0600), link), 0);
    expect_refused(link, "writable by group or others", "chmod go-w");
    /* A relative path is checked just the same. */
    char cwd[256];
    CHECK(getcwd(cwd, sizeof cwd) != NULL);
    CHECK_INT(chdir(open_dir), 0);
    expect_refused("k.ring", "writable by group or others", "chmod go-w");
    CHECK_INT(chdir(cwd), 0);
}

/* ---------------------------------------------------------------------------
 * Finding 8: the private generator for data keys and nonces
 * ------------------------------------------------------------------------ */

static atomic_long public_calls, private_calls;

int RAND_bytes(unsigned char *buf, int num)
{
    static int (*real)(unsigned char *, int);
    if (!real)
        real = (int (*)(unsigned char *, int))dlsym(RTLD_NEXT, "RAND_bytes");
    atomic_fetch_add(&public_calls, 1);
    return real(buf, num);
}

int RAND_priv_bytes(unsigned char *buf, int num)
{
    static int (*real)(unsigned char *, int);
    if (!real)
        real = (int (*)(unsigned char *, int))dlsym(RTLD_NEXT, "RAND_priv_bytes");
    atomic_fetch_add(&private_calls, 1);
    return real(buf, num);
}

static void test_private_generator(void)
{
    const char text[] = "k " OTHER_HEX "\n";
    for (int strategy = CODEC_ENVELOPE_DIRECT; strategy <= CODEC_ENVELOPE_BOUNDED; strategy++) {
        codec_error err;
        codec_envelope_options o = {0};
        o.provider = codec_keyring_provider(codec_keyring_parse(text, sizeof text - 1, &err));
        o.strategy = (codec_envelope_strategy)strategy;
        o.max_messages = strategy == CODEC_ENVELOPE_BOUNDED ? 2 : 0;
        codec *c = codec_envelope(&o, &err);
        CHECK(c != NULL);
        codec_buf out;
        codec_buf_init(&out, NULL);
        long pub = atomic_load(&public_calls), priv = atomic_load(&private_calls);
        /* 200 messages use more than one 1 KiB random block */
        for (int i = 0; i < 200; i++) {
            codec_bytes in = {(const uint8_t *)"x", 1};
            CHECK_INT(codec_encode(c, &in, &out, &err), 0);
        }
        CHECK_INT(atomic_load(&public_calls) - pub, 0);
        CHECK(atomic_load(&private_calls) - priv >= 2);
        codec_buf_free(&out);
        codec_free(c);
    }
    char line[128];
    codec_error err;
    long pub = atomic_load(&public_calls);
    CHECK_INT(codec_keyring_generate_line(NULL, line, sizeof line, &err), 0);
    CHECK_INT(atomic_load(&public_calls) - pub, 0);
}

int main(void)
{
    /* Before OpenSSL allocates anything. */
    CHECK(CRYPTO_set_mem_functions(ossl_malloc, ossl_realloc, ossl_free) == 1);
    /* codec calls libcrypto through its table (src/core/dynlib_internal.h),
     * not through symbol lookup, so defining RAND_priv_bytes here does not
     * reach it: the table's entry is pointed at the wrapper. RAND_bytes is
     * not in the table at all. */
    CHECK_INT(codec__dynlib_open(&codec__libcrypto, "test", NULL), 0);
    codec__libcrypto_fn.fn_RAND_priv_bytes = RAND_priv_bytes;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/codec-hygiene-XXXXXX");
    if (!mkdtemp(tmpdir))
        return 1;
    test_released_memory();
    test_ownership();
    test_private_generator();
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0)
        return 1;
    return check_done("key_hygiene");
}
