/* child.c — see child.h. The monotonic clock is system-wide, so a child's
 * reading at main() minus the parent's reading before spawning is the
 * process start time (exec, dynamic loading, libc start-up). */
#include "child.h"

#include "codec/codec.h"
#include "models_types.h"

#include <errno.h>
#include <limits.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

void bench_cell_serialize(FILE *f, const bench_cell *c)
{
    fprintf(f, "%d %zu %d", (int)c->status, c->encoded_len, c->enc.n);
    for (int i = 0; i < c->enc.n; i++)
        fprintf(f, " %a", c->enc.v[i]);
    fprintf(f, " %d", c->dec.n);
    for (int i = 0; i < c->dec.n; i++)
        fprintf(f, " %a", c->dec.v[i]);
    const bench_allocs *a[2] = {&c->enc_allocs, &c->dec_allocs};
    for (int k = 0; k < 2; k++)
        fprintf(f, " %a %a %a %a", a[k]->heap_calls, a[k]->heap_bytes, a[k]->codec_calls,
                a[k]->codec_bytes);
    fprintf(f, " %d", c->scale_threads);
    for (int t = 0; t < c->scale_threads; t++)
        for (int k = 0; k < 2; k++) {
            const bench_scale *sc = k ? &c->scale_dec[t] : &c->scale_enc[t];
            fprintf(f, " %a %a %a", sc->ops_s, sc->speedup, sc->cpu_ns);
        }
    fprintf(f, "\t%s\n", c->reason);
}

/* Reads the next number; -1 on a malformed line. */
static int next_num(const char **p, double *v)
{
    char *end;
    *v = strtod(*p, &end);
    if (end == *p)
        return -1;
    *p = end;
    return 0;
}

static int read_series(const char **p, bench_series *s)
{
    double n, v;
    if (next_num(p, &n) != 0 || n < 0 || n > BENCH_MAX_SAMPLES)
        return -1;
    for (int i = 0; i < (int)n; i++) {
        if (next_num(p, &v) != 0)
            return -1;
        bench_series_add(s, v);
    }
    return 0;
}

int bench_cell_merge(bench_cell *c, const char *line)
{
    const char *p = line;
    double status, enc_len, threads;
    bench_allocs a[2];
    if (next_num(&p, &status) != 0 || next_num(&p, &enc_len) != 0 ||
        read_series(&p, &c->enc) != 0 || read_series(&p, &c->dec) != 0)
        return -1;
    for (int k = 0; k < 2; k++)
        if (next_num(&p, &a[k].heap_calls) || next_num(&p, &a[k].heap_bytes) ||
            next_num(&p, &a[k].codec_calls) || next_num(&p, &a[k].codec_bytes))
            return -1;
    if (next_num(&p, &threads) != 0 || threads < 0 || threads > BENCH_MAX_THREADS)
        return -1;
    for (int t = 0; t < (int)threads; t++)
        for (int k = 0; k < 2; k++) {
            bench_scale *sc = k ? &c->scale_dec[t] : &c->scale_enc[t];
            if (next_num(&p, &sc->ops_s) || next_num(&p, &sc->speedup) || next_num(&p, &sc->cpu_ns))
                return -1;
        }
    /* a cell is only as good as its worst fork */
    if (c->status == BENCH_PENDING || c->status == BENCH_OK)
        c->status = (bench_status)(int)status;
    c->encoded_len = (size_t)enc_len;
    c->enc_allocs = a[0];
    c->dec_allocs = a[1];
    c->scale_threads = (int)threads;
    const char *tab = strchr(p, '\t');
    if (tab && tab[1] && c->reason[0] == 0)
        snprintf(c->reason, sizeof c->reason, "%.*s", (int)strcspn(tab + 1, "\n"), tab + 1);
    return 0;
}

pid_t bench_spawn_reading(const char *file, bool search, char **argv, int *out_fd)
{
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    pid_t pid;
    int err = search ? posix_spawnp(&pid, file, &fa, NULL, argv, environ)
                     : posix_spawn(&pid, file, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    if (err != 0) {
        close(fds[0]);
        errno = err;
        return -1;
    }
    *out_fd = fds[0];
    return pid;
}

/* Spawns /proc/self/exe with argv, captures stdout (up to cap-1 bytes) and
 * waits. *t_spawn is the monotonic time just before spawning.
 * @return the exit status, or -1 when the child could not be run. */
static int run_self(char **argv, char *out, size_t cap, int64_t *t_spawn)
{
    int fd;
    *t_spawn = bench_now_ns();
    pid_t pid = bench_spawn_reading("/proc/self/exe", false, argv, &fd);
    if (pid < 0)
        return -1;
    size_t len = 0;
    char drain[512];
    for (;;) {
        /* past cap, keep reading (and dropping) so the child never blocks */
        bool full = len == cap - 1;
        ssize_t r = full ? read(fd, drain, sizeof drain) : read(fd, out + len, cap - 1 - len);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        if (!full)
            len += (size_t)r;
    }
    out[len] = 0;
    close(fd);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void bench_run_forked(bench_cell *c, size_t index, int forks, char **argv, int argc)
{
    char **args = calloc((size_t)argc + 3, sizeof *args);
    char k[32], out[16384];
    if (!args) {
        c->status = BENCH_FAILED;
        snprintf(c->reason, sizeof c->reason, "out of memory");
        return;
    }
    for (int i = 0; i < argc; i++)
        args[i] = argv[i];
    snprintf(k, sizeof k, "%zu", index);
    args[argc] = "--child-cell";
    args[argc + 1] = k;
    for (int f = 0; f < forks && c->status != BENCH_FAILED && c->status != BENCH_NOT_BUILT;
         f++) {
        int64_t t;
        if (run_self(args, out, sizeof out, &t) != 0 || bench_cell_merge(c, out) != 0) {
            c->status = BENCH_FAILED;
            snprintf(c->reason, sizeof c->reason, "fork %d did not report", f + 1);
        }
    }
    free(args);
}

void bench_run_cold(bench_cell *c, const bench_profile *prof)
{
    char out[1024];
    char *args[] = {"codec-bench", "--cold-child", c->spec, (char *)c->payload->name, NULL};
    for (int s = 0; s < prof->cold_samples; s++) {
        int64_t t0;
        int rc = run_self(args, out, sizeof out, &t0);
        long long tm, ta, tb, tc, rest;
        if (rc == 0 && sscanf(out, "ok %lld %lld %lld %lld %lld", &tm, &ta, &tb, &tc, &rest) == 5) {
            bench_series_add(&c->cold_ns.start, (double)(tm - t0));
            bench_series_add(&c->cold_ns.init, (double)(tb - ta));
            bench_series_add(&c->cold_ns.first, (double)(tc - tb));
            bench_series_add(&c->cold_ns.rest, (double)rest);
            c->status = BENCH_OK;
            continue;
        }
        bool not_built = strncmp(out, "not-built ", 10) == 0;
        const char *why = not_built                           ? out + 10
                          : strncmp(out, "failed ", 7) == 0 ? out + 7
                                                            : "the child crashed";
        c->status = not_built ? BENCH_NOT_BUILT : BENCH_FAILED;
        snprintf(c->reason, sizeof c->reason, "%.*s", (int)strcspn(why, "\n"), why);
        return;
    }
}

/* Steady-state operations timed after the first, per sample. */
#define COLD_REST_OPS 20

/* One encode + decode of p; with `check`, the result must equal p (its
 * bytes, or for a typed payload its rendering). `value` holds t->size bytes
 * when t is not NULL; `scratch` receives that rendering. */
static int encode_decode(const codec *c, const codec_type *t, const bench_payload *p,
                         void *value, codec_buf *out, codec_buf *scratch,
                         codec_arena *arena, bool check)
{
    codec_bytes in = {p->bytes, p->len}, back;
    codec_buf_clear(out);
    codec_arena_reset(arena);
    if (codec_encode(c, t ? p->value : &in, out, NULL) != 0 ||
        codec_decode(c, out->data, out->len, t ? value : &back, arena, NULL) != 0)
        return -1;
    if (!check)
        return 0;
    if (t) {
        codec_buf_clear(scratch);
        if (bench_payload_render(p, value, scratch) != 0)
            return -1;
        back = (codec_bytes){scratch->data, scratch->len};
    }
    return back.len != p->len || memcmp(back.data, p->bytes, p->len) != 0 ? -1 : 0;
}

int bench_cold_child(int64_t t_main, const char *spec, const char *payload)
{
    if (bench_payloads_init() != 0)
        return 1;
    const bench_payload *p = bench_payload_find(payload);
    if (!p) {
        printf("failed unknown payload %s\n", payload);
        return 0;
    }
    const codec_type *t = bench_model_type(p);
    if (p->model && !t) {
        printf("not-built no type descriptor for model %s\n", p->model);
        return 0;
    }
    codec_error err;
    int64_t ta = bench_now_ns();
    codec *c = codec_parse(spec, t, &err);
    int64_t tb = bench_now_ns();
    if (!c) {
        char msg[256];
        printf("not-built %s\n", codec_error_format(&err, msg, sizeof msg));
        return 0;
    }
    void *value = t ? calloc(1, t->size) : NULL;
    codec_buf out, scratch;
    codec_arena arena;
    codec_buf_init(&out, NULL);
    codec_buf_init(&scratch, NULL);
    codec_arena_init(&arena, NULL, 0);
    int rc = t && !value ? -1 : encode_decode(c, t, p, value, &out, &scratch, &arena, true);
    int64_t tc = bench_now_ns();
    for (int i = 0; rc == 0 && i < COLD_REST_OPS; i++)
        rc = encode_decode(c, t, p, value, &out, &scratch, &arena, false);
    int64_t td = bench_now_ns();
    if (rc == 0)
        printf("ok %lld %lld %lld %lld %lld\n", (long long)t_main, (long long)ta, (long long)tb,
               (long long)tc, (long long)((td - tc) / COLD_REST_OPS));
    else
        printf("failed round trip of %s on %s\n", spec, payload);
    codec_buf_free(&out);
    codec_buf_free(&scratch);
    codec_arena_free(&arena);
    free(value);
    codec_free(c);
    return 0;
}
