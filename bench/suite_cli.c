/* suite_cli.c — the `cli` suite (see suite_cli.h). */
#include "suite_cli.h"
#include "suite_files.h"

#include "codec/codec.h"
#include "codec/stream.h"
#include "payloads/json_out.h"
#include "payloads/jrandom.h"
#include "payloads/payloads.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef BENCH_CODEC_CLI
#define BENCH_CODEC_CLI "codec"
#endif

/* The generators' blocks repeat every BLOCK bytes: farther apart than any
 * window used here (zstd -19: 8 MiB, brotli -w 22: 4 MiB), so no tool
 * sees the repetition, and a GiB input costs 16 MiB of memory. */
#define BLOCK ((size_t)16 << 20)
#define STREAM_SIZE ((size_t)1 << 20)
#define STREAM_PIECE ((size_t)64 << 10)
#define MAX_ARGS 16

/* ---------------------------------------------------------------------------
 * The rows
 * ------------------------------------------------------------------------ */

typedef struct cli_row {
    const char *id;           /* "zstd-3": the id's middle part */
    const char *name;         /* "zstd -3": the tool's command line */
    const char *tool;
    const char *enc[6];       /* the tool's arguments before FILE */
    const char *dec[6];
    const char *pack_spec;    /* codec pack -p */
    const char *unpack_spec;  /* codec unpack -p */
    const char *threads;      /* codec -T, or NULL */
} cli_row;

static const cli_row ROWS[] = {
    /* The zstd tool compresses on one worker thread by default (-T1, the
     * same frames as `codec pack -T1`); --single-thread is codec's default. */
    {"zstd-3", "zstd -3", "zstd", {"-3", "-q", "-c"}, {"-d", "-q", "-c"}, "zstd:3", "zstd", "1"},
    {"zstd-3-st", "zstd -3 --single-thread", "zstd", {"-3", "--single-thread", "-q", "-c"},
     {"-d", "-q", "-c"}, "zstd:3", "zstd", NULL},
    {"zstd-19-T2", "zstd -19 -T2", "zstd", {"-19", "-T2", "-q", "-c"}, {"-d", "-q", "-c"},
     "zstd:19", "zstd", "2"},
    {"gzip-6", "gzip -6", "gzip", {"-6", "-c"}, {"-d", "-c"}, "gzip:6", "gzip", NULL},
    /* -B4: 64 KiB independent blocks, the frames codec writes (the tool's
     * default is 4 MiB blocks) */
    {"lz4", "lz4 -B4", "lz4", {"-q", "-B4", "-c"}, {"-d", "-q", "-c"}, "lz4", "lz4", NULL},
    {"brotli-q5", "brotli -q 5 -w 22", "brotli", {"-q", "5", "-w", "22", "-c"}, {"-d", "-c"},
     "brotli:5", "brotli", NULL},
    {"base64", "base64", "base64", {NULL}, {"-d"}, "base64:wrap=76", "base64:wrap=76", NULL},
};
#define NROWS (sizeof ROWS / sizeof ROWS[0])

static const char *const PAYLOADS[] = {"prose", "json", "random"};
#define NPAYLOADS (sizeof PAYLOADS / sizeof PAYLOADS[0])

/* The stream-vs-one-shot specs. */
static const char *const STREAM_SPECS[] = {"zstd:3", "gzip:6", "lz4", "brotli:5", "base64"};
#define NSTREAM (sizeof STREAM_SPECS / sizeof STREAM_SPECS[0])

/* One process's figures (the median run by wall time; RSS the largest). */
typedef struct proc_stats {
    double wall, user, sys;
    long max_rss_kib;
} proc_stats;

typedef struct dir_result {
    proc_stats codec, tool;
} dir_result;

typedef struct cli_cell {
    const cli_row *row;
    const char *payload;
    bool selected;
    int status;               /* BENCH_OK, BENCH_NOT_BUILT, BENCH_FAILED */
    char reason[256];
    uint64_t codec_bytes, tool_bytes; /* compressed sizes */
    dir_result comp, decomp;
} cli_cell;

typedef struct threads_cell {
    bool selected;
    int status;
    char reason[256];
    proc_stats t1, t2;
} threads_cell;

typedef struct stream_cell {
    const char *spec;
    bool selected;
    int status;
    char reason[256];
    double oneshot[2], stream[2]; /* seconds per op: [0] encode, [1] decode */
} stream_cell;

typedef struct cli_run {
    const char *codec;        /* the codec command */
    char dir[64];             /* temporary directory */
    uint64_t size;
    int reps;
    cli_cell cells[NROWS * NPAYLOADS];
    threads_cell threads;
    stream_cell stream[NSTREAM];
} cli_run;

static const char *status_name(int s)
{
    return s == BENCH_OK ? "ok" : s == BENCH_NOT_BUILT ? "not built" : "failed";
}

static bool matches(const char *filter, const char *id)
{
    return !filter || fnmatch(filter, id, 0) == 0 || strstr(id, filter) != NULL;
}

uint64_t bench_cli_default_size(const bench_profile *prof)
{
    return strcmp(prof->name, "quick") == 0 ? (uint64_t)32 << 20 : (uint64_t)1 << 30;
}

int bench_cli_parse_size(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = s ? strtoull(s, &end, 10) : 0;
    if (!s || end == s || errno)
        return -1;
    int shift = 0;
    switch (*end) {
    case 'k': case 'K': shift = 10, end++; break;
    case 'm': case 'M': shift = 20, end++; break;
    case 'g': case 'G': shift = 30, end++; break;
    default: break;
    }
    if (*end || v == 0 || v > (UINT64_MAX >> shift))
        return -1;
    *out = (uint64_t)v << shift;
    return 0;
}

/* ---------------------------------------------------------------------------
 * Inputs
 * ------------------------------------------------------------------------ */

/* One BLOCK (or `size` when smaller) of the payload. */
static int make_block(const char *payload, size_t len, codec_buf *b)
{
    codec_buf_clear(b);
    if (strcmp(payload, "prose") == 0)
        return bench_gen_prose(len, b);
    if (strcmp(payload, "json") == 0) {
        /* 85..115 bytes per record: enough records, then cut to len */
        if (bench_gen_json((int)(len / 60 + 16), b) != 0)
            return -1;
        if (b->len < len)
            return -1;
        b->len = len;
        return 0;
    }
    if (codec_buf_reserve(b, len) != 0)
        return -1;
    jrandom r;
    jrandom_seed(&r, 1234);
    for (size_t i = 0; i < len; i++)
        b->data[i] = (uint8_t)jrandom_next(&r, 8);
    b->len = len;
    return 0;
}

static int write_all(int fd, const uint8_t *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Writes `size` bytes of the payload to path: the block repeated (random
 * bytes get a fresh block each time, from the same generator). */
static int write_input(const char *path, const char *payload, uint64_t size)
{
    codec_buf b;
    codec_buf_init(&b, NULL);
    size_t block = size < BLOCK ? (size_t)size : BLOCK;
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    int rc = fd < 0 || make_block(payload, block, &b) != 0 ? -1 : 0;
    jrandom r;
    jrandom_seed(&r, 99);
    for (uint64_t left = size; !rc && left; ) {
        size_t n = left < b.len ? (size_t)left : b.len;
        rc = write_all(fd, b.data, n);
        left -= n;
        if (strcmp(payload, "random") == 0)
            for (size_t i = 0; i < b.len; i++)
                b.data[i] = (uint8_t)jrandom_next(&r, 8);
    }
    if (fd >= 0 && close(fd) != 0)
        rc = -1;
    codec_buf_free(&b);
    return rc;
}

static uint64_t file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

/* ---------------------------------------------------------------------------
 * Child processes
 * ------------------------------------------------------------------------ */

/* Where a child's standard output goes. */
typedef enum out_kind { OUT_NULL, OUT_FILE, OUT_COMPARE } out_kind;

/* GNU time, which reports the peak RSS of the command it forks. A process
 * forked from codec-bench (and so its exec'd tool) counts codec-bench's own
 * peak RSS in ru_maxrss: Linux keeps the larger of the old and new memory
 * at exec. The command started by time is forked from time's small
 * process instead. CPU times come from our own wait4, which includes
 * time's reaped child. */
#define GNU_TIME "/usr/bin/time"

/* The peak RSS (KiB) GNU time wrote to `path`, or -1. */
static long read_rss(const char *path)
{
    FILE *f = fopen(path, "r");
    long kib = -1;
    if (f) {
        char line[128];
        /* the last line: time prints "Command exited with non-zero status" first */
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "%ld", &kib) != 1)
                kib = -1;
        fclose(f);
    }
    unlink(path);
    return kib;
}

/* Runs argv (searched on PATH) with stdin from /dev/null, under GNU time
 * when it is installed; stdout to /dev/null, to file `out`, or through a
 * pipe compared byte for byte with file `out` (*same says whether it
 * matched). Wall time, CPU time and peak RSS of the command into *st (RSS
 * -1 without GNU time). @return the exit status (0..255), or -1 when it
 * could not run or died of a signal. */
static int run_child(char *const *argv, out_kind kind, const char *out, bool *same,
                     proc_stats *st)
{
    static char rss_file[64];
    if (!rss_file[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(rss_file, sizeof rss_file, "%s/codec-bench-rss-%ld",
                 tmp && *tmp && strlen(tmp) < 32 ? tmp : "/tmp", (long)getpid());
    }
    bool timed = access(GNU_TIME, X_OK) == 0;
    const char *wrapped[MAX_ARGS + 8];
    size_t k = 0;
    if (timed) {
        wrapped[k++] = GNU_TIME, wrapped[k++] = "-f", wrapped[k++] = "%M";
        wrapped[k++] = "-o", wrapped[k++] = rss_file;
    }
    for (size_t i = 0; argv[i] && k < MAX_ARGS + 7; i++)
        wrapped[k++] = argv[i];
    wrapped[k] = NULL;
    int pipefd[2] = {-1, -1};
    int outfd = -1;
    if (kind == OUT_COMPARE && pipe(pipefd) != 0)
        return -1;
    if (kind == OUT_FILE)
        outfd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    else if (kind == OUT_NULL)
        outfd = open("/dev/null", O_WRONLY | O_CLOEXEC);
    else
        outfd = pipefd[1];
    int infd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (outfd < 0 || infd < 0) {
        if (outfd >= 0)
            close(outfd);
        if (infd >= 0)
            close(infd);
        if (kind == OUT_COMPARE)
            close(pipefd[0]);
        return -1;
    }
    fflush(NULL);
    double t0 = bench_now();
    pid_t pid = fork();
    if (pid == 0) {
        dup2(infd, STDIN_FILENO);
        dup2(outfd, STDOUT_FILENO);
        execvp(wrapped[0], (char *const *)wrapped);
        _exit(127);
    }
    close(infd);
    close(outfd);
    if (pid < 0) {
        if (kind == OUT_COMPARE)
            close(pipefd[0]);
        return -1;
    }
    if (kind == OUT_COMPARE) {
        /* read all of it (a child stopped early would get SIGPIPE) */
        FILE *ref = fopen(out, "rb");
        static uint8_t a[1 << 18], b[1 << 18];
        bool equal = ref != NULL;
        for (;;) {
            ssize_t n = read(pipefd[0], a, sizeof a);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                break;
            if (equal && (fread(b, 1, (size_t)n, ref) != (size_t)n || memcmp(a, b, (size_t)n)))
                equal = false;
        }
        if (equal && fgetc(ref) != EOF)
            equal = false; /* the child's output is shorter */
        if (ref)
            fclose(ref);
        close(pipefd[0]);
        *same = equal;
    }
    int status;
    struct rusage ru;
    while (wait4(pid, &status, 0, &ru) < 0)
        if (errno != EINTR)
            return -1;
    st->wall = bench_now() - t0;
    st->user = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
    st->sys = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
    st->max_rss_kib = timed ? read_rss(rss_file) : -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* argv of the codec command: pack or unpack -q -c -p SPEC [-T N] FILE. */
static void codec_argv(const cli_run *run, const char **argv, bool decode, const char *spec,
                       const char *threads, const char *file)
{
    size_t k = 0;
    argv[k++] = run->codec;
    argv[k++] = decode ? "unpack" : "pack";
    argv[k++] = "-q";
    argv[k++] = "-c";
    argv[k++] = "-p";
    argv[k++] = spec;
    if (threads)
        argv[k++] = "-T", argv[k++] = threads;
    argv[k++] = file;
    argv[k] = NULL;
}

/* argv of the tool: TOOL ARGS... FILE. */
static void tool_argv(const cli_row *r, const char **argv, bool decode, const char *file)
{
    const char *const *args = decode ? r->dec : r->enc;
    size_t k = 0;
    argv[k++] = r->tool;
    for (size_t i = 0; i < 6 && args[i]; i++)
        argv[k++] = args[i];
    argv[k++] = file;
    argv[k] = NULL;
}

static bool on_path(const char *tool)
{
    const char *path = getenv("PATH");
    char buf[1024];
    for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
        size_t n = strcspn(p, ":");
        snprintf(buf, sizeof buf, "%.*s/%s", (int)n, p, tool);
        if (access(buf, X_OK) == 0)
            return true;
        p += n + (p[n] == ':');
    }
    return false;
}

static int by_wall(const void *a, const void *b)
{
    double x = ((const proc_stats *)a)->wall, y = ((const proc_stats *)b)->wall;
    return x < y ? -1 : x > y;
}

/* The median run by wall time, with the largest RSS of all runs. */
static proc_stats median_run(proc_stats *runs, int n)
{
    long rss = -1;
    for (int i = 0; i < n; i++)
        rss = runs[i].max_rss_kib > rss ? runs[i].max_rss_kib : rss;
    qsort(runs, (size_t)n, sizeof *runs, by_wall);
    proc_stats m = runs[n / 2];
    m.max_rss_kib = rss;
    return m;
}

/* Times a and b alternately, run->reps times each, output to /dev/null. */
static int time_pair(const cli_run *run, char *const *a, char *const *b, proc_stats *sa,
                     proc_stats *sb, char *reason, size_t cap)
{
    proc_stats ra[16], rb[16];
    int reps = run->reps < 16 ? run->reps : 16;
    for (int i = 0; i < reps; i++) {
        if (run_child(a, OUT_NULL, NULL, NULL, &ra[i]) != 0) {
            snprintf(reason, cap, "%s %s failed while timed", a[0], a[1]);
            return -1;
        }
        if (run_child(b, OUT_NULL, NULL, NULL, &rb[i]) != 0) {
            snprintf(reason, cap, "%s %s failed while timed", b[0], b[1]);
            return -1;
        }
    }
    *sa = median_run(ra, reps);
    *sb = median_run(rb, reps);
    return 0;
}

/* ---------------------------------------------------------------------------
 * A row on one input
 * ------------------------------------------------------------------------ */

/* Decodes `file` with argv into a pipe and compares with the input. */
static bool reads_back(char *const *argv, const char *input, char *reason, size_t cap,
                       const char *what)
{
    bool same = false;
    proc_stats st;
    int rc = run_child(argv, OUT_COMPARE, input, &same, &st);
    if (rc != 0 || !same) {
        snprintf(reason, cap, "%s: %s", what,
                 rc != 0 ? "exit status not 0" : "the bytes differ from the input");
        return false;
    }
    return true;
}

static void run_cell(cli_run *run, cli_cell *c, const char *input)
{
    const cli_row *r = c->row;
    if (!on_path(r->tool)) {
        c->status = BENCH_NOT_BUILT;
        snprintf(c->reason, sizeof c->reason, "no %s on PATH", r->tool);
        return;
    }
    char cout[96], tout[96];
    snprintf(cout, sizeof cout, "%s/codec.out", run->dir);
    snprintf(tout, sizeof tout, "%s/tool.out", run->dir);
    const char *ce[MAX_ARGS], *te[MAX_ARGS], *cd[MAX_ARGS], *td[MAX_ARGS];
    proc_stats cst, tst;
    /* 1. outputs checked both ways before anything is timed */
    codec_argv(run, ce, false, r->pack_spec, r->threads, input);
    tool_argv(r, te, false, input);
    if (run_child((char *const *)ce, OUT_FILE, cout, NULL, &cst) != 0 ||
        run_child((char *const *)te, OUT_FILE, tout, NULL, &tst) != 0) {
        c->status = BENCH_FAILED;
        snprintf(c->reason, sizeof c->reason, "compressing failed");
        goto out;
    }
    c->codec_bytes = file_size(cout);
    c->tool_bytes = file_size(tout);
    codec_argv(run, cd, true, r->unpack_spec, NULL, cout);
    tool_argv(r, td, true, cout);
    bool ok = reads_back((char *const *)cd, input, c->reason, sizeof c->reason,
                         "codec unpack of codec's output") &&
              reads_back((char *const *)td, input, c->reason, sizeof c->reason,
                         "the tool's decode of codec's output");
    codec_argv(run, cd, true, r->unpack_spec, NULL, tout);
    tool_argv(r, td, true, tout);
    ok = ok && reads_back((char *const *)cd, input, c->reason, sizeof c->reason,
                          "codec unpack of the tool's output");
    if (!ok) {
        c->status = BENCH_FAILED;
        goto out;
    }
    /* 2. timed: compress the input, decompress the tool's output. With one
     * repetition the checked compressions above are the timed ones (to a file
     * on both sides): a level-19 compression of 1 GiB takes a quarter of an
     * hour, and running it twice more would only repeat it. */
    if (run->reps == 1) {
        c->comp.codec = cst;
        c->comp.tool = tst;
    }
    if ((run->reps > 1 && time_pair(run, (char *const *)ce, (char *const *)te, &c->comp.codec,
                                    &c->comp.tool, c->reason, sizeof c->reason) != 0) ||
        time_pair(run, (char *const *)cd, (char *const *)td, &c->decomp.codec,
                  &c->decomp.tool, c->reason, sizeof c->reason) != 0) {
        c->status = BENCH_FAILED;
        goto out;
    }
    c->status = BENCH_OK;
out:
    unlink(cout);
    unlink(tout);
}

/* codec pack -T2 against -T1: zstd:19 on the input. */
static void run_threads(cli_run *run, threads_cell *t, const char *input)
{
    char out[96];
    snprintf(out, sizeof out, "%s/t1.out", run->dir);
    const char *a1[MAX_ARGS], *a2[MAX_ARGS], *d[MAX_ARGS];
    codec_argv(run, a1, false, "zstd:19", "1", input);
    codec_argv(run, a2, false, "zstd:19", "2", input);
    codec_argv(run, d, true, "zstd", NULL, out);
    proc_stats st;
    t->status = BENCH_FAILED;
    if (run_child((char *const *)a1, OUT_FILE, out, NULL, &st) != 0)
        snprintf(t->reason, sizeof t->reason, "codec pack -T1 failed");
    else if (reads_back((char *const *)d, input, t->reason, sizeof t->reason,
                        "codec unpack of the -T1 output") &&
             run_child((char *const *)a2, OUT_FILE, out, NULL, &st) == 0 &&
             reads_back((char *const *)d, input, t->reason, sizeof t->reason,
                        "codec unpack of the -T2 output") &&
             time_pair(run, (char *const *)a1, (char *const *)a2, &t->t1, &t->t2, t->reason,
                       sizeof t->reason) == 0)
        t->status = BENCH_OK;
    unlink(out);
}

/* ---------------------------------------------------------------------------
 * Streaming API against one-shot, in process
 * ------------------------------------------------------------------------ */

/* Streams src through a stream of c in STREAM_PIECE pieces into out
 * (codec_stream_update, then the drains after finish). */
static int stream_once(const codec *c, codec_stream_mode mode, const uint8_t *src, size_t n,
                       codec_buf *out, codec_error *err)
{
    codec_stream *s = codec_stream_new(c, mode, err);
    if (!s)
        return err->family;
    out->len = 0;
    int rc = mode == CODEC_STREAM_ENCODE ? codec_stream_pledge(s, n, err) : CODEC_OK;
    for (size_t at = 0; !rc && at < n;) {
        size_t used = 0, got = 0, piece = n - at < STREAM_PIECE ? n - at : STREAM_PIECE;
        if (out->cap - out->len < STREAM_PIECE && codec_buf_reserve(out, STREAM_PIECE))
            return codec_stream_free(s), CODEC_E_NOMEM;
        rc = codec_stream_update(s, src + at, piece, &used, out->data + out->len,
                                 out->cap - out->len, &got, err);
        at += used;
        out->len += got;
    }
    if (!rc)
        rc = codec_stream_finish(s, err);
    while (!rc && !codec_stream_done(s)) {
        size_t got = 0;
        if (out->cap - out->len < STREAM_PIECE && codec_buf_reserve(out, STREAM_PIECE)) {
            rc = CODEC_E_NOMEM;
            break;
        }
        rc = codec_stream_drain(s, out->data + out->len, out->cap - out->len, &got, err);
        out->len += got;
    }
    codec_stream_free(s);
    return rc;
}

/* The one-shot call as a caller that decodes again and again would make
 * it: one arena, reset before each decode (as the stream side reuses its
 * output buffer). A fresh arena per call put the one-shot decode's output
 * in memory the encoder before it had given back to the kernel: about 250
 * page faults per MiB, which on a loaded VM made brotli's one-shot decode
 * look ten times its stream (docs/guides/streaming.md). */
static int oneshot_once(const codec *c, bool decode, const uint8_t *src, size_t n, codec_buf *out,
                        codec_arena *arena, codec_error *err)
{
    out->len = 0;
    if (!decode) {
        codec_bytes in = {src, n};
        return codec_encode(c, &in, out, err);
    }
    codec_arena_reset(arena);
    codec_bytes back;
    int rc = codec_decode(c, src, n, &back, arena, err);
    if (!rc)
        rc = codec_buf_append(out, back.data, back.len) ? CODEC_E_NOMEM : CODEC_OK;
    return rc;
}

static int by_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void run_stream_cell(stream_cell *sc, const uint8_t *prose, int reps)
{
    codec_error err;
    codec *c = codec_parse(sc->spec, NULL, &err);
    codec_buf enc, back, tmp;
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_buf_init(&enc, NULL);
    codec_buf_init(&back, NULL);
    codec_buf_init(&tmp, NULL);
    sc->status = BENCH_FAILED;
    if (!c) {
        sc->status = BENCH_NOT_BUILT;
        snprintf(sc->reason, sizeof sc->reason, "%s", err.message);
        goto out;
    }
    /* checked first: the stream decodes the one-shot bytes back, and the
     * one-shot decode reads the stream's bytes */
    if (oneshot_once(c, false, prose, STREAM_SIZE, &enc, &arena, &err) ||
        stream_once(c, CODEC_STREAM_DECODE, enc.data, enc.len, &back, &err) ||
        back.len != STREAM_SIZE || memcmp(back.data, prose, STREAM_SIZE) != 0 ||
        stream_once(c, CODEC_STREAM_ENCODE, prose, STREAM_SIZE, &tmp, &err) ||
        oneshot_once(c, true, tmp.data, tmp.len, &back, &arena, &err) || back.len != STREAM_SIZE ||
        memcmp(back.data, prose, STREAM_SIZE) != 0) {
        snprintf(sc->reason, sizeof sc->reason, "round trip: %s", err.message);
        goto out;
    }
    double t[2][2][64];
    if (reps > 64)
        reps = 64;
    for (int i = 0; i < reps; i++)
        for (int dir = 0; dir < 2; dir++) {
            const uint8_t *src = dir ? enc.data : prose;
            size_t n = dir ? enc.len : STREAM_SIZE;
            double t0 = bench_now();
            int rc = oneshot_once(c, dir == 1, src, n, &back, &arena, &err);
            double t1 = bench_now();
            rc |= stream_once(c, dir ? CODEC_STREAM_DECODE : CODEC_STREAM_ENCODE, src, n, &tmp,
                              &err);
            double t2 = bench_now();
            if (rc) {
                snprintf(sc->reason, sizeof sc->reason, "%s", err.message);
                goto out;
            }
            t[dir][0][i] = t1 - t0;
            t[dir][1][i] = t2 - t1;
        }
    for (int dir = 0; dir < 2; dir++) {
        qsort(t[dir][0], (size_t)reps, sizeof(double), by_double);
        qsort(t[dir][1], (size_t)reps, sizeof(double), by_double);
        sc->oneshot[dir] = t[dir][0][reps / 2];
        sc->stream[dir] = t[dir][1][reps / 2];
    }
    sc->status = BENCH_OK;
out:
    codec_buf_free(&enc);
    codec_buf_free(&back);
    codec_buf_free(&tmp);
    codec_arena_free(&arena);
    codec_free(c);
}

/* ---------------------------------------------------------------------------
 * Reports
 * ------------------------------------------------------------------------ */

static double mbps(uint64_t bytes, double secs)
{
    return secs > 0 ? (double)bytes / 1048576.0 / secs : 0;
}

static void jo_proc(json_out *j, const char *key, const proc_stats *p, uint64_t bytes)
{
    jo_key(j, key);
    jo_begin_object(j);
    jo_key(j, "wall_s"), jo_double(j, p->wall);
    jo_key(j, "cpu_s"), jo_double(j, p->user + p->sys);
    jo_key(j, "user_s"), jo_double(j, p->user);
    jo_key(j, "sys_s"), jo_double(j, p->sys);
    jo_key(j, "max_rss_kib"), jo_int(j, p->max_rss_kib);
    jo_key(j, "mib_per_s"), jo_double(j, mbps(bytes, p->wall));
    jo_end_object(j);
}

static void jo_direction(json_out *j, const char *key, const dir_result *d, uint64_t bytes)
{
    jo_key(j, key);
    jo_begin_object(j);
    jo_proc(j, "codec", &d->codec, bytes);
    jo_proc(j, "tool", &d->tool, bytes);
    jo_key(j, "throughput_ratio"), jo_double(j, d->codec.wall > 0 ? d->tool.wall / d->codec.wall : 0);
    jo_key(j, "rss_ratio"),
        jo_double(j, d->tool.max_rss_kib > 0
                         ? (double)d->codec.max_rss_kib / (double)d->tool.max_rss_kib
                         : 0);
    jo_end_object(j);
}

static void jo_status(json_out *j, int status, const char *reason)
{
    jo_key(j, "status"), jo_string(j, status_name(status));
    if (status != BENCH_OK)
        jo_key(j, "reason"), jo_string(j, reason);
}

static int write_json(codec_buf *b, const cli_run *run, const bench_profile *prof,
                      const bench_machine *m)
{
    json_out j;
    jo_init(&j, b);
    bench_suite_json_head(&j, "cli", prof, m);
    jo_key(&j, "codec_command"), jo_string(&j, run->codec);
    jo_key(&j, "input_bytes"), jo_int(&j, (int64_t)run->size);
    jo_key(&j, "repetitions"), jo_int(&j, run->reps);
    jo_key(&j, "cells");
    jo_begin_array(&j);
    for (size_t i = 0; i < NROWS * NPAYLOADS; i++) {
        const cli_cell *c = &run->cells[i];
        if (!c->selected)
            continue;
        jo_begin_object(&j);
        jo_key(&j, "row"), jo_string(&j, c->row->id);
        jo_key(&j, "tool_command"), jo_string(&j, c->row->name);
        jo_key(&j, "pack_spec"), jo_string(&j, c->row->pack_spec);
        jo_key(&j, "codec_threads"), jo_int(&j, c->row->threads ? atoi(c->row->threads) : 1);
        jo_key(&j, "payload"), jo_string(&j, c->payload);
        jo_status(&j, c->status, c->reason);
        if (c->status == BENCH_OK) {
            jo_key(&j, "codec_bytes"), jo_int(&j, (int64_t)c->codec_bytes);
            jo_key(&j, "tool_bytes"), jo_int(&j, (int64_t)c->tool_bytes);
            jo_direction(&j, "compress", &c->comp, run->size);
            jo_direction(&j, "decompress", &c->decomp, run->size);
        }
        jo_end_object(&j);
    }
    jo_end_array(&j);
    if (run->threads.selected) {
        const threads_cell *t = &run->threads;
        jo_key(&j, "threads");
        jo_begin_object(&j);
        jo_key(&j, "spec"), jo_string(&j, "zstd:19");
        jo_key(&j, "payload"), jo_string(&j, "prose");
        jo_status(&j, t->status, t->reason);
        if (t->status == BENCH_OK) {
            jo_proc(&j, "t1", &t->t1, run->size);
            jo_proc(&j, "t2", &t->t2, run->size);
            jo_key(&j, "speedup"), jo_double(&j, t->t2.wall > 0 ? t->t1.wall / t->t2.wall : 0);
            jo_key(&j, "target"), jo_double(&j, 1.7);
        }
        jo_end_object(&j);
    }
    jo_key(&j, "stream");
    jo_begin_array(&j);
    for (size_t i = 0; i < NSTREAM; i++) {
        const stream_cell *s = &run->stream[i];
        if (!s->selected)
            continue;
        jo_begin_object(&j);
        jo_key(&j, "spec"), jo_string(&j, s->spec);
        jo_key(&j, "input_bytes"), jo_int(&j, (int64_t)STREAM_SIZE);
        jo_status(&j, s->status, s->reason);
        if (s->status == BENCH_OK)
            for (int dir = 0; dir < 2; dir++) {
                jo_key(&j, dir ? "decode" : "encode");
                jo_begin_object(&j);
                jo_key(&j, "oneshot_s"), jo_double(&j, s->oneshot[dir]);
                jo_key(&j, "stream_s"), jo_double(&j, s->stream[dir]);
                jo_key(&j, "stream_vs_oneshot"),
                    jo_double(&j, s->oneshot[dir] > 0 ? s->stream[dir] / s->oneshot[dir] : 0);
                jo_end_object(&j);
            }
        jo_end_object(&j);
    }
    jo_end_array(&j);
    jo_key(&j, "stream_target"), jo_double(&j, 1.03);
    jo_end_object(&j);
    return j.failed || codec_buf_append(b, "\n", 1) ? -1 : 0;
}

static void md_proc(FILE *f, const char *who, const proc_stats *p, uint64_t bytes)
{
    fprintf(f, " %s %.0f MiB/s, %.2f s wall, %.2f s CPU, %.1f MiB RSS |", who,
            mbps(bytes, p->wall), p->wall, p->user + p->sys, (double)p->max_rss_kib / 1024);
}

/* What write_md() needs, for bench_suite_write_files(). */
typedef struct md_ctx {
    const cli_run *run;
    const bench_profile *prof;
    const bench_machine *m;
} md_ctx;

static void write_md(FILE *f, const void *ctx)
{
    const cli_run *run = ((const md_ctx *)ctx)->run;
    const bench_profile *prof = ((const md_ctx *)ctx)->prof;
    const bench_machine *m = ((const md_ctx *)ctx)->m;
    fprintf(f, "# codec-bench cli suite\n\n**Machine:** %s, %d cores, %s, %s (profile %s)\n\n",
            m->cpu, m->cores, m->host, m->date, prof->name);
    fprintf(f, "The `codec` command (`%s`) beside the tools, as processes on the same "
               "%llu-byte files (median of %d runs by wall time; CPU = user + sys of the "
               "process, RSS = its peak). × = codec's throughput over the tool's (> 1: codec "
               "is faster); RSS × = codec's peak over the tool's. Every row was checked "
               "first: codec's output read back by codec and by the tool, the tool's by "
               "codec.%s\n\n",
            run->codec, (unsigned long long)run->size, run->reps,
            run->reps == 1 ? " With one run, the compressions timed are those checked, "
                             "written to a file on both sides; the rest write to /dev/null."
                           : "");
    fputs("| tool | input | direction | × | RSS × | codec | tool | codec B | tool B |\n"
          "|---|---|---|---:|---:|---|---|---:|---:|\n",
          f);
    for (size_t i = 0; i < NROWS * NPAYLOADS; i++) {
        const cli_cell *c = &run->cells[i];
        if (!c->selected)
            continue;
        if (c->status != BENCH_OK) {
            fprintf(f, "| `%s` | %s | | %s: %s ||||||\n", c->row->name, c->payload,
                    status_name(c->status), c->reason);
            continue;
        }
        for (int dir = 0; dir < 2; dir++) {
            const dir_result *d = dir ? &c->decomp : &c->comp;
            fprintf(f, "| `%s` | %s | %s | %.2f | %.2f |", c->row->name, c->payload,
                    dir ? "decompress" : "compress",
                    d->codec.wall > 0 ? d->tool.wall / d->codec.wall : 0,
                    d->tool.max_rss_kib ? (double)d->codec.max_rss_kib / (double)d->tool.max_rss_kib
                                        : 0);
            md_proc(f, "", &d->codec, run->size);
            md_proc(f, "", &d->tool, run->size);
            fprintf(f, " %llu | %llu |\n", (unsigned long long)c->codec_bytes,
                    (unsigned long long)c->tool_bytes);
        }
    }
    if (run->threads.selected) {
        const threads_cell *t = &run->threads;
        fputs("\n## `codec pack -T2` against `-T1` (zstd:19, prose; target 1.7x)\n\n", f);
        if (t->status != BENCH_OK)
            fprintf(f, "%s: %s\n", status_name(t->status), t->reason);
        else {
            fprintf(f, "| threads | wall s | CPU s | RSS MiB | MiB/s |\n|---|---:|---:|---:|---:|\n");
            const proc_stats *p[2] = {&t->t1, &t->t2};
            for (int k = 0; k < 2; k++)
                fprintf(f, "| -T%d | %.2f | %.2f | %.1f | %.1f |\n", k + 1, p[k]->wall,
                        p[k]->user + p[k]->sys, (double)p[k]->max_rss_kib / 1024,
                        mbps(run->size, p[k]->wall));
            fprintf(f, "\nspeed-up -T2/-T1: %.2fx\n", t->t2.wall > 0 ? t->t1.wall / t->t2.wall : 0);
        }
    }
    fputs("\n## Streaming API against one-shot, in process (1 MiB of prose; target ≤ 1.03)\n\n"
          "| spec | encode one-shot µs | encode stream µs | stream/one-shot | decode one-shot µs "
          "| decode stream µs | stream/one-shot |\n|---|---:|---:|---:|---:|---:|---:|\n",
          f);
    for (size_t i = 0; i < NSTREAM; i++) {
        const stream_cell *s = &run->stream[i];
        if (!s->selected)
            continue;
        if (s->status != BENCH_OK) {
            fprintf(f, "| `%s` | %s: %s ||||||\n", s->spec, status_name(s->status), s->reason);
            continue;
        }
        fprintf(f, "| `%s` |", s->spec);
        for (int dir = 0; dir < 2; dir++)
            fprintf(f, " %.0f | %.0f | %.3f |", s->oneshot[dir] * 1e6, s->stream[dir] * 1e6,
                    s->oneshot[dir] > 0 ? s->stream[dir] / s->oneshot[dir] : 0);
        fputc('\n', f);
    }
    fputc('\n', f);
}

static int write_outputs(const char *dir, const cli_run *run, const bench_profile *prof,
                         const bench_machine *m)
{
    codec_buf b;
    codec_buf_init(&b, NULL);
    md_ctx ctx = {run, prof, m};
    int rc = write_json(&b, run, prof, m) == 0
                 ? bench_suite_write_files(dir, "cli", &b, write_md, &ctx)
                 : -1;
    codec_buf_free(&b);
    return rc;
}

static void print_table(const cli_run *run)
{
    printf("cli suite (%llu-byte inputs; x = codec/tool throughput)\n%-14s %-7s %9s %9s %9s %9s\n",
           (unsigned long long)run->size, "tool", "input", "comp x", "decomp x", "comp RSS",
           "dec RSS");
    for (size_t i = 0; i < NROWS * NPAYLOADS; i++) {
        const cli_cell *c = &run->cells[i];
        if (!c->selected)
            continue;
        if (c->status != BENCH_OK) {
            printf("%-14s %-7s %s: %s\n", c->row->id, c->payload, status_name(c->status),
                   c->reason);
            continue;
        }
        printf("%-14s %-7s %9.2f %9.2f %8ldK %8ldK\n", c->row->id, c->payload,
               c->comp.tool.wall / c->comp.codec.wall, c->decomp.tool.wall / c->decomp.codec.wall,
               c->comp.codec.max_rss_kib, c->decomp.codec.max_rss_kib);
    }
    if (run->threads.selected && run->threads.status == BENCH_OK)
        printf("codec pack -T2 / -T1 (zstd:19): %.2fx\n",
               run->threads.t1.wall / run->threads.t2.wall);
    for (size_t i = 0; i < NSTREAM; i++)
        if (run->stream[i].selected && run->stream[i].status == BENCH_OK)
            printf("stream/one-shot %-9s encode %.3f decode %.3f\n", run->stream[i].spec,
                   run->stream[i].stream[0] / run->stream[i].oneshot[0],
                   run->stream[i].stream[1] / run->stream[i].oneshot[1]);
}

/* ---------------------------------------------------------------------------
 * The suite
 * ------------------------------------------------------------------------ */

int bench_cli_suite(const char *out_dir, const bench_profile *prof, const bench_machine *m,
                    const char *filter, uint64_t size)
{
    cli_run *run = calloc(1, sizeof *run);
    if (!run)
        return 1;
    const char *env = getenv("CODEC_BENCH_CLI");
    run->codec = env && *env ? env : BENCH_CODEC_CLI;
    run->size = size ? size : bench_cli_default_size(prof);
    run->reps = strcmp(prof->name, "quick") == 0 ? 1 : 3;
    for (size_t p = 0; p < NPAYLOADS; p++)
        for (size_t r = 0; r < NROWS; r++) {
            cli_cell *c = &run->cells[p * NROWS + r];
            char id[96];
            c->row = &ROWS[r];
            c->payload = PAYLOADS[p];
            snprintf(id, sizeof id, "cli/%s/%s", ROWS[r].id, PAYLOADS[p]);
            c->selected = matches(filter, id);
        }
    run->threads.selected = matches(filter, "cli/threads/prose");
    for (size_t i = 0; i < NSTREAM; i++) {
        char id[96];
        run->stream[i].spec = STREAM_SPECS[i];
        snprintf(id, sizeof id, "cli/stream/%s", STREAM_SPECS[i]);
        run->stream[i].selected = matches(filter, id);
    }
    int failed = 0;
    const char *tmp = getenv("TMPDIR");
    snprintf(run->dir, sizeof run->dir, "%s/codec-bench-cli-XXXXXX",
             tmp && *tmp && strlen(tmp) < 32 ? tmp : "/tmp");
    if (!mkdtemp(run->dir)) {
        perror("codec-bench: cli suite: mkdtemp");
        free(run);
        return 1;
    }
    char input[96];
    snprintf(input, sizeof input, "%s/input", run->dir);
    for (size_t p = 0; p < NPAYLOADS; p++) {
        bool any = p == 0 && run->threads.selected;
        for (size_t r = 0; r < NROWS; r++)
            any |= run->cells[p * NROWS + r].selected;
        if (!any)
            continue;
        fprintf(stderr, "codec-bench: cli: %llu bytes of %s\n", (unsigned long long)run->size,
                PAYLOADS[p]);
        if (write_input(input, PAYLOADS[p], run->size) != 0) {
            perror("codec-bench: cli suite: writing the input");
            failed = 1;
            break;
        }
        for (size_t r = 0; r < NROWS; r++) {
            cli_cell *c = &run->cells[p * NROWS + r];
            if (!c->selected)
                continue;
            fprintf(stderr, "codec-bench: cli/%s/%s\n", c->row->id, c->payload);
            run_cell(run, c, input);
            failed |= c->status == BENCH_FAILED;
        }
        if (p == 0 && run->threads.selected) {
            fprintf(stderr, "codec-bench: cli/threads/prose\n");
            run_threads(run, &run->threads, input);
            failed |= run->threads.status == BENCH_FAILED;
        }
        unlink(input);
    }
    rmdir(run->dir);
    codec_buf prose;
    codec_buf_init(&prose, NULL);
    if (bench_gen_prose(STREAM_SIZE, &prose) != 0) {
        failed = 1;
    } else {
        int reps = strcmp(prof->name, "quick") == 0 ? 5 : 31;
        for (size_t i = 0; i < NSTREAM; i++)
            if (run->stream[i].selected) {
                run_stream_cell(&run->stream[i], prose.data, reps);
                failed |= run->stream[i].status == BENCH_FAILED;
            }
    }
    codec_buf_free(&prose);
    print_table(run);
    if (write_outputs(out_dir, run, prof, m) != 0) {
        perror(out_dir);
        failed = 1;
    }
    free(run);
    return failed;
}
