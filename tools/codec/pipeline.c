/* pipeline.c — `codec pack` and `codec unpack`, with the habits of gzip and
 * zstd: FILE... become FILE.<suffix> (and back), -c writes standard output,
 * -o names the output, -k keeps the input, -f forces, -q/-v, -T N.
 *
 * Everything streams (codec/stream.h), so any size goes through in bounded
 * memory. An output file is written beside its target and renamed into
 * place only after the whole stream, trailers included, has verified
 * (outfile.c). Standard output gets the first CLI_HOLD bytes only once
 * the stream has ended, so small outputs appear whole or not at all; a
 * longer stream that fails after output began says so loudly. Those bytes
 * wait in the output buffer itself, so holding them back costs no memory.
 *
 * Where the stages are quick next to read(), input past the first MiB is
 * read ahead by a second thread (reader below), as zstd's asyncio does, so
 * read() overlaps the stages. */
#include "cli.h"
#include "codec/stream.h"
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

/* Bytes read per call; the output buffer, which is also what standard
 * output holds back (docs/guides/cli.md, "Standard output"). */
#define CLI_READ ((size_t)128 << 10)
#define CLI_HOLD ((size_t)128 << 10)

typedef struct pipe_opts {
    const char *cmd;
    const char *spec;          /* -p SPEC */
    bool decode, to_stdout, keep, force, quiet, verbose, check;
    long threads;
    const char *output;        /* -o FILE */
    size_t max_input;
    uint64_t max_output;
} pipe_opts;

/* Output goes through one buffer: codec_stream_update() and
 * codec_stream_drain() write it, the sink takes it. Static, so only the
 * pages output reaches are ever touched. A page past CLI_HOLD: bytes
 * there say the output is longer than what is held back. */
static uint8_t out_buf[CLI_HOLD + 4096];

/* Where output goes: a file descriptor. Standard output holds back its
 * first CLI_HOLD bytes: they stay in out_buf[0..held), the stream writes
 * after them, and they go out once more than CLI_HOLD bytes came (at the
 * next write into the buffer) or the stream has ended. */
typedef struct sink {
    int fd;
    const char *name;          /* for messages */
    bool hold;
    bool wrote;                /* bytes have reached fd */
    size_t held;               /* out_buf[0..held) is held back */
    uint64_t bytes;
} sink;

static int write_all(sink *k, const uint8_t *p, size_t n, codec_error *err)
{
    while (n) {
        ssize_t w = write(k->fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return codec_error_set(err, CODEC_E_TRANSIENT, CODEC_D_IO, "output", CODEC_NO_OFFSET,
                                   "cannot write %s: %s", k->name, strerror(errno));
        k->wrote = true;
        p += w;
        n -= (size_t)w;
    }
    return CODEC_OK;
}

/* Ends the holding back: what was held goes out. */
static int sink_flush(sink *k, codec_error *err)
{
    int rc = write_all(k, out_buf, k->held, err);
    k->held = 0;
    k->hold = false;
    return rc;
}

/* Where the stream writes next: out_buf past what is held, never empty
 * (the hold ends first once more than CLI_HOLD bytes came). */
static int sink_room(sink *k, uint8_t **at, size_t *room, codec_error *err)
{
    int rc = k->hold && k->held > CLI_HOLD ? sink_flush(k, err) : CODEC_OK;
    *at = out_buf + k->held;
    /* Once nothing is held, CLI_HOLD: a whole number of the 64 KiB blocks
     * lz4 and the block adapter decode straight into the room. */
    *room = (k->hold ? sizeof out_buf : CLI_HOLD) - k->held;
    return rc;
}

/* The stream wrote n bytes where sink_room() said. */
static int sink_wrote(sink *k, size_t n, codec_error *err)
{
    k->bytes += n;
    if (k->hold) {
        k->held += n;
        return CODEC_OK;
    }
    return write_all(k, out_buf, n, err);
}

/* ---- progress --------------------------------------------------------- */

typedef struct progress {
    bool on;                   /* stderr is a terminal and not -q */
    bool shown;
    struct timespec start, last;
} progress;

static double seconds_since(const struct timespec *t)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t->tv_sec) + (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

/* At most once a second, after the first second: bytes in and out, ratio, speed. */
static void progress_show(progress *p, const char *name, const codec_stream *s, bool end)
{
    if (!p->on || (!end && (seconds_since(&p->start) < 1 || seconds_since(&p->last) < 1)))
        return;
    if (end && !p->shown)
        return;
    double in = (double)codec_stream_total_in(s), out = (double)codec_stream_total_out(s);
    double secs = seconds_since(&p->start);
    fprintf(stderr, "\r%s: %.1f MiB -> %.1f MiB (%.1f%%) %.1f MiB/s%s", name, in / 1048576,
            out / 1048576, in ? 100 * out / in : 0.0, secs > 0 ? in / 1048576 / secs : 0.0,
            end ? "\n" : "   ");
    clock_gettime(CLOCK_MONOTONIC, &p->last);
    p->shown = true;
}

/* ---- one stream ------------------------------------------------------- */

/* Gives in[0..n) to the stream, writing what comes out. */
static int update_all(codec_stream *s, const uint8_t *in, size_t n, sink *k, codec_error *err)
{
    size_t at = 0, used, got, room;
    do {
        uint8_t *out;
        int rc = sink_room(k, &out, &room, err);
        if (!rc)
            rc = codec_stream_update(s, in + at, n - at, &used, out, room, &got, err);
        if (!rc)
            rc = sink_wrote(k, got, err);
        if (rc)
            return rc;
        at += used;
    } while (at < n || got == room);
    return CODEC_OK;
}

static int drain_all(codec_stream *s, sink *k, codec_error *err)
{
    size_t got, room;
    do {
        uint8_t *out;
        int rc = sink_room(k, &out, &room, err);
        if (!rc)
            rc = codec_stream_drain(s, out, room, &got, err);
        if (!rc)
            rc = sink_wrote(k, got, err);
        if (rc)
            return rc;
    } while (got == room);
    return CODEC_OK;
}

static void read_error(const char *name, int errnum, codec_error *err)
{
    codec_error_set(err, CODEC_E_TRANSIENT, CODEC_D_IO, "input", CODEC_NO_OFFSET,
                    "cannot read '%s': %s", name, strerror(errnum));
}

/* ---- reading ahead ---------------------------------------------------- */

/* The input comes in pieces of at most CLI_READ bytes. The first
 * READ_PROBE bytes are read by the calling thread; past them a reader
 * thread may fill a ring of CLI_SLOTS buffers ahead of the stages (as
 * zstd's asyncio does), so reading overlaps the stages and a small input
 * starts no thread. Two slots (the one the stages work on, the one being
 * read) measured as well as three on 1 GiB, for 128 KiB less memory. The
 * pipeline takes slots in order and gives each back when done with it; the
 * reader stops after the end of input or an error, which the pipeline
 * reports as it would have reported its own read (same message). Buffers
 * are static and touched only when used.
 *
 * Reading ahead saves at most the time read() takes, so the reader starts
 * only where that is a share worth its memory (the second slot, the
 * thread's stack and the libc pages it touches: about 0.2 MiB of peak
 * RSS): while it reads the first READ_PROBE bytes, the calling thread
 * times its reads and the stages between them, and carries on alone if
 * the stages took READ_AHEAD_RATIO times as long as the reads or more
 * (reading ahead would save under 3%). gzip -6 and brotli then read alone;
 * lz4, zstd -d, base64 and a pipe from a slower writer (read() waits for
 * it) read ahead. `pack -T N` reads alone: zstd's workers keep the CPUs
 * busy, and a third busy thread made `-T1 -p zstd:3` of random bytes up
 * to 3 times slower. CODEC_READ_AHEAD=on or =off in the environment
 * decides instead. The choice changes no output byte.
 *
 * A side that finds nothing to take (the reader: no free slot; the
 * pipeline: no filled one) spins up to SPIN_NS before it sleeps on the
 * condition variable: the stages that read ahead take a piece in tens of
 * microseconds, about what waking a sleeping thread costs on a virtual
 * CPU, and with sleeps on both sides reading ahead made `brotli -d` of
 * stored blocks 1.7 times slower than reading alone on an Intel Xeon guest
 * (docs/benchmarks.md, part N). A signal to a side that is spinning makes
 * no system call; the spinner yields every few microseconds, to whatever
 * else has work. */
#define CLI_SLOTS 2
#define READ_PROBE ((uint64_t)1 << 20)
#define READ_AHEAD_RATIO 32
#define SPIN_NS 200000

typedef struct slot {
    size_t len;
    int errnum;                /* read()'s errno, or 0 */
} slot;

typedef struct reader {
    int fd;
    bool threaded, taken;      /* the thread runs; the pipeline holds slots[head] */
    bool alone;                /* no thread (not worth it, or it could not
                                * start): read here to the end */
    bool workers;              /* -T N: zstd's workers have the CPUs */
    uint64_t total;            /* bytes the calling thread read itself */
    uint64_t read_ns, work_ns; /* until READ_PROBE: time in read(), and in
                                * the stages since the previous piece */
    unsigned reads;            /* ... and reads timed so far */
    struct timespec given;     /* when the previous piece was given */
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    slot slots[CLI_SLOTS];
    unsigned head;             /* next slot to take */
    atomic_uint filled;        /* slots filled from head; changed under mu,
                                * read without it while spinning */
    bool stop;                 /* the pipeline is done: the reader exits */
    bool ended;                /* the reader saw the end or an error, and exits */
    int wake[2];               /* a pipe: reader_stop() ends the reader's poll() */
    bool regular;              /* fd is a regular file: no poll() */
} reader;

static uint8_t in_bufs[CLI_SLOTS][CLI_READ];

static ssize_t read_once(int fd, uint8_t *buf)
{
    ssize_t r;
    do
        r = read(fd, buf, CLI_READ);
    while (r < 0 && errno == EINTR);
    return r;
}

/* The reader's read(). Unless fd is a regular file (whose read() always
 * returns), it first waits until fd has input (or its end, or an error)
 * or reader_stop() writes to the wake pipe, so that it never blocks in
 * read() on a pipe that may never deliver (after a decoding error). -1
 * with errno 0: stopped. (Cancelling the thread inside read() did that
 * before; a cancelled thread's unwinding trips AddressSanitizer.) */
static ssize_t reader_read(reader *r, uint8_t *buf)
{
    if (r->regular)
        return read_once(r->fd, buf);
    struct pollfd p[2] = {{.fd = r->fd, .events = POLLIN}, {.fd = r->wake[0], .events = POLLIN}};
    while (poll(p, 2, -1) < 0)
        if (errno != EINTR)
            return -1;
    if (p[1].revents) {
        errno = 0;
        return -1;
    }
    return read_once(r->fd, buf);
}

static uint64_t ns_between(const struct timespec *a, const struct timespec *b)
{
    return (uint64_t)((b->tv_sec - a->tv_sec) * 1000000000LL + (b->tv_nsec - a->tv_nsec));
}

/* Called with r->mu held, which it releases while it spins: returns once
 * r->filled is no longer `from`, or after SPIN_NS. */
static void spin_while_filled(reader *r, unsigned from)
{
    pthread_mutex_unlock(&r->mu);
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (unsigned i = 1; atomic_load_explicit(&r->filled, memory_order_relaxed) == from; i++) {
#if defined(__x86_64__) || defined(__i386__)
        _mm_pause();
#endif
        if (i % 64 == 0) {
            clock_gettime(CLOCK_MONOTONIC, &now);
            if (ns_between(&start, &now) > SPIN_NS)
                break;
            sched_yield(); /* to a thread that has work, if any waits */
        }
    }
    pthread_mutex_lock(&r->mu);
}

static void *reader_main(void *arg)
{
    reader *r = arg;
    pthread_mutex_lock(&r->mu);
    for (;;) {
        if (!r->stop && r->filled == CLI_SLOTS)
            spin_while_filled(r, CLI_SLOTS);
        while (!r->stop && r->filled == CLI_SLOTS)
            pthread_cond_wait(&r->cv, &r->mu);
        if (r->stop)
            break;
        /* head + filled stays put while the pipeline gives slots back */
        unsigned i = (r->head + r->filled) % CLI_SLOTS;
        pthread_mutex_unlock(&r->mu);
        ssize_t n = reader_read(r, in_bufs[i]);
        int errnum = n < 0 ? errno : 0;
        pthread_mutex_lock(&r->mu);
        if (n < 0 && errnum == 0) /* stopped */
            break;
        r->slots[i] = (slot){n < 0 ? 0 : (size_t)n, errnum};
        r->filled++;
        r->ended = n <= 0;
        pthread_cond_signal(&r->cv);
        if (r->ended)
            break;
    }
    pthread_mutex_unlock(&r->mu);
    return NULL;
}

/* Starts the reader thread, with every signal blocked (they stay with the
 * calling thread, as without it); false when it cannot (then the caller
 * reads on). */
static bool reader_start(reader *r)
{
    struct stat st;
    r->regular = fstat(r->fd, &st) == 0 && S_ISREG(st.st_mode);
    if (pipe(r->wake) != 0)
        return false;
    if (pthread_mutex_init(&r->mu, NULL) != 0) {
        close(r->wake[0]);
        close(r->wake[1]);
        return false;
    }
    if (pthread_cond_init(&r->cv, NULL) != 0) {
        pthread_mutex_destroy(&r->mu);
        close(r->wake[0]);
        close(r->wake[1]);
        return false;
    }
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    r->head = 0;
    atomic_store(&r->filled, 0);
    r->stop = r->taken = r->ended = false;
    r->threaded = pthread_create(&r->thread, NULL, reader_main, r) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (!r->threaded) {
        pthread_cond_destroy(&r->cv);
        pthread_mutex_destroy(&r->mu);
        close(r->wake[0]);
        close(r->wake[1]);
    }
    return r->threaded;
}

/* Whether to read ahead past READ_PROBE: CODEC_READ_AHEAD=on or =off, or
 * else the rule above. */
static bool read_ahead_wanted(const reader *r)
{
    const char *v = getenv("CODEC_READ_AHEAD");
    if (v && strcmp(v, "on") == 0)
        return true;
    if (v && strcmp(v, "off") == 0)
        return false;
    return !r->workers && r->work_ns < READ_AHEAD_RATIO * r->read_ns;
}

/* The next piece of input: *n bytes at *data, 0 at the end. The previous
 * piece is given back first. */
static int reader_next(reader *r, const char *name, const uint8_t **data, size_t *n,
                       codec_error *err)
{
    if (!r->threaded && !r->alone && r->total >= READ_PROBE)
        r->alone = !read_ahead_wanted(r) || !reader_start(r);
    if (!r->threaded) {
        /* The first read and the stages' first piece are left out: page
         * faults on fresh buffers and libraries opened make them slow. */
        bool probing = !r->alone;
        struct timespec start;
        if (probing) {
            clock_gettime(CLOCK_MONOTONIC, &start);
            if (r->reads > 1)
                r->work_ns += ns_between(&r->given, &start);
        }
        ssize_t got = read_once(r->fd, in_bufs[0]);
        if (got < 0) {
            read_error(name, errno, err);
            return err->family;
        }
        if (probing) {
            clock_gettime(CLOCK_MONOTONIC, &r->given);
            if (r->reads++)
                r->read_ns += ns_between(&start, &r->given);
        }
        r->total += (uint64_t)got;
        *data = in_bufs[0];
        *n = (size_t)got;
        return CODEC_OK;
    }
    pthread_mutex_lock(&r->mu);
    if (r->taken) {
        r->head = (r->head + 1) % CLI_SLOTS;
        r->filled--;
        pthread_cond_signal(&r->cv);
    }
    if (r->filled == 0)
        spin_while_filled(r, 0);
    while (r->filled == 0)
        pthread_cond_wait(&r->cv, &r->mu);
    slot s = r->slots[r->head];
    r->taken = true;
    pthread_mutex_unlock(&r->mu);
    if (s.errnum) {
        read_error(name, s.errnum, err);
        return err->family;
    }
    *data = in_bufs[r->head];
    *n = s.len;
    return CODEC_OK;
}

/* Ends the reader thread, wherever it is: waiting for a slot, or waiting
 * for input on a pipe that may never deliver (after a decoding error). */
static void reader_stop(reader *r)
{
    if (!r->threaded)
        return;
    pthread_mutex_lock(&r->mu);
    r->stop = true;
    pthread_cond_signal(&r->cv);
    pthread_mutex_unlock(&r->mu);
    ssize_t w;
    do
        w = write(r->wake[1], "", 1);
    while (w < 0 && errno == EINTR);
    pthread_join(r->thread, NULL);
    pthread_cond_destroy(&r->cv);
    pthread_mutex_destroy(&r->mu);
    close(r->wake[0]);
    close(r->wake[1]);
    r->threaded = false;
}

/* Streams fd through s into k. */
static int pump_fd(codec_stream *s, const pipe_opts *o, int fd, const char *name, sink *k,
                   codec_error *err)
{
    progress p = {.on = !o->quiet && isatty(STDERR_FILENO)};
    clock_gettime(CLOCK_MONOTONIC, &p.start);
    p.last = p.start;
    reader r = {.fd = fd, .workers = !o->decode && o->threads > 0};
    uint64_t total = 0;
    int rc;
    for (;;) {
        const uint8_t *in = NULL;
        size_t n = 0;
        if ((rc = reader_next(&r, name, &in, &n, err)) || n == 0)
            break;
        total += n;
        if (total > o->max_input)
            rc = codec_error_set(err, CODEC_E_INVALID_PAYLOAD, CODEC_D_LIMIT, "input",
                                 o->max_input, "input is larger than --max-input (%zu bytes)",
                                 o->max_input);
        else
            rc = update_all(s, in, n, k, err);
        if (rc) {
            reader_stop(&r);
            return rc;
        }
        progress_show(&p, name, s, false);
    }
    reader_stop(&r);
    if (!rc)
        rc = codec_stream_finish(s, err);
    while (!rc && !codec_stream_done(s))
        rc = drain_all(s, k, err);
    progress_show(&p, name, s, true);
    return rc;
}

/* Runs one input (fd, size or -1) to one sink. */
static int run_one(const codec *c, const pipe_opts *o, int fd, const char *name, off_t size,
                   sink *k, codec_error *err)
{
    codec_stream *s = codec_stream_new(c, o->decode ? CODEC_STREAM_DECODE : CODEC_STREAM_ENCODE,
                                       err);
    if (!s)
        return err->family;
    codec_stream_limit(s, o->max_output);
    int rc = !o->decode && size >= 0 ? codec_stream_pledge(s, (uint64_t)size, err) : CODEC_OK;
    if (!rc)
        rc = pump_fd(s, o, fd, name, k, err);
    if (!rc && k->hold)
        rc = sink_flush(k, err);
    codec_stream_free(s);
    return rc;
}

/* ---- names ------------------------------------------------------------ */

/* The suffix of the last stage of the spec that has one (".zst" for
 * "zstd | crc32c"), or ".codec". */
static const char *suffix_of(const codec *c)
{
    static const struct { const char *stage, *suffix; } table[] = {
        {"zstd", ".zst"},   {"gzip", ".gz"},      {"deflate", ".zz"},  {"lz4", ".lz4"},
        {"lz4hc", ".lz4"},  {"brotli", ".br"},    {"snappy", ".sz"},   {"base64", ".b64"},
        {"base32", ".b32"}, {"hex", ".hex"},      {"envelope", ".enc"}};
    const char *suffix = ".codec";
    const char *p = codec_spec(c);
    while (*p) {
        size_t len = strcspn(p, ":| ");
        for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
            if (strlen(table[i].stage) == len && strncmp(p, table[i].stage, len) == 0)
                suffix = table[i].suffix;
        const char *bar = strchr(p, '|');
        if (!bar)
            break;
        p = bar + 1;
        while (*p == ' ')
            p++;
    }
    return suffix;
}

/* FILE.suffix (pack) or FILE without it (unpack); NULL when an unpacked
 * name lacks the suffix. Free with free(). */
static char *output_name(const pipe_opts *o, const char *path, const char *suffix)
{
    size_t n = strlen(path), sl = strlen(suffix);
    if (o->decode) {
        if (n <= sl || strcmp(path + n - sl, suffix) != 0)
            return NULL;
        return strndup(path, n - sl);
    }
    char *name = malloc(n + sl + 1);
    if (name) {
        memcpy(name, path, n);
        memcpy(name + n, suffix, sl + 1);
    }
    return name;
}

/* ---- the spec the command runs ---------------------------------------- */

/* The command's defaults on top of the user's spec: zstd frames carry their
 * checksum (as the zstd tool writes them) unless --no-check, which also
 * drops LZ4's; -T N gives zstd N workers; text stages read wrapped lines
 * (lines=skip), as base64 -d does. Arguments the user gave win. */
static codec *command_codec(const pipe_opts *o, codec_error *err)
{
    codec *user = codec_parse(o->spec, NULL, err);
    if (!user)
        return user;
    const char *norm = codec_spec(user);
    size_t cap = strlen(norm) * 2 + 256;
    char *spec = malloc(cap);
    if (!spec) {
        codec_free(user);
        codec_error_set(err, CODEC_E_NOMEM, 0, "spec", CODEC_NO_OFFSET, "out of memory");
        return NULL;
    }
    size_t used = 0;
    for (const char *p = norm; *p;) {
        size_t len = strcspn(p, "|");
        while (len && p[len - 1] == ' ')
            len--;
        char stage[600];
        snprintf(stage, sizeof stage, "%.*s", (int)len, p);
        size_t name = strcspn(stage, ":");
        bool zstd = name == 4 && strncmp(stage, "zstd", 4) == 0;
        bool lz4 = (name == 3 && strncmp(stage, "lz4", 3) == 0) ||
                   (name == 5 && strncmp(stage, "lz4hc", 5) == 0);
        bool text = (name == 6 && (strncmp(stage, "base64", 6) == 0 ||
                                   strncmp(stage, "base32", 6) == 0)) ||
                    (name == 3 && strncmp(stage, "hex", 3) == 0);
        const char *extra[2] = {NULL, NULL};
        if (o->decode)
            extra[0] = text && !strstr(stage, "lines=") ? "lines=skip" : NULL;
        else if (!strstr(stage, "checksum=") && (zstd || (lz4 && !o->check)))
            extra[0] = o->check ? "checksum=on" : "checksum=off";
        char workers[32];
        if (!o->decode && zstd && o->threads > 0 && !strstr(stage, "workers=")) {
            snprintf(workers, sizeof workers, "workers=%ld", o->threads);
            extra[1] = workers;
        }
        used += (size_t)snprintf(spec + used, cap - used, "%s%s", used ? " | " : "", stage);
        bool has_args = strchr(stage, ':') != NULL;
        for (size_t i = 0; i < 2; i++) {
            if (!extra[i])
                continue;
            used += (size_t)snprintf(spec + used, cap - used, "%s%s", has_args ? "," : ":",
                                     extra[i]);
            has_args = true;
        }
        p += strcspn(p, "|");
        while (*p == '|' || *p == ' ')
            p++;
    }
    codec_free(user);
    codec *c = codec_parse(spec, NULL, err);
    free(spec);
    return c;
}

/* ---- one input -------------------------------------------------------- */

static bool output_is_text(const codec *c)
{
    const char *spec = codec_spec(c);
    const char *last = strrchr(spec, '|');
    last = last ? last + 1 : spec;
    while (*last == ' ')
        last++;
    size_t len = strcspn(last, ":");
    for (size_t i = 0; i < codec_registry_count(); i++) {
        const codec_stage_info *info = codec_registry_info(i);
        if (strlen(info->name) == len && strncmp(info->name, last, len) == 0)
            return info->kind == CODEC_KIND_TEXT;
    }
    return false;
}

/* The error of one input: `codec: FILE: stage: message (offset N)` when
 * there are files, plus a warning when standard output already got part of
 * it. */
static int report(const pipe_opts *o, const char *file, const sink *k, const codec_error *err)
{
    char line[256];
    codec_error_format(err, line, sizeof line);
    if (file)
        fprintf(stderr, "codec: %s: %s\n", file, line);
    else
        fprintf(stderr, "codec: %s\n", line);
    if (k->wrote && k->fd == STDOUT_FILENO)
        fprintf(stderr, "codec: %s: the %llu bytes written to standard output before the "
                        "error are incomplete and unverified\n",
                o->cmd, (unsigned long long)k->bytes);
    return cli_exit_code(err->family);
}

static int refuse_terminal(const pipe_opts *o, const codec *c, bool reading_stdin)
{
    if (o->force)
        return CLI_EXIT_OK;
    if (!o->decode && !output_is_text(c) && !o->output && isatty(STDOUT_FILENO) &&
        (o->to_stdout || reading_stdin)) {
        fprintf(stderr, "codec: compressed data not written to a terminal. Use -f to force "
                        "compression.\nFor help, type: codec help %s\n", o->cmd);
        return CLI_EXIT_PAYLOAD;
    }
    if (o->decode && reading_stdin && isatty(STDIN_FILENO)) {
        fprintf(stderr, "codec: compressed data not read from a terminal. Use -f to force "
                        "decompression.\nFor help, type: codec help %s\n", o->cmd);
        return CLI_EXIT_PAYLOAD;
    }
    return CLI_EXIT_OK;
}

static void verbose_line(const pipe_opts *o, const char *in, const char *out, uint64_t in_bytes,
                         uint64_t out_bytes)
{
    if (!o->verbose || o->quiet)
        return;
    fprintf(stderr, "codec: %s: %llu -> %llu bytes (%.2f%%)%s%s\n", in,
            (unsigned long long)in_bytes, (unsigned long long)out_bytes,
            in_bytes ? 100.0 * (double)out_bytes / (double)in_bytes : 0.0, out ? ", wrote " : "",
            out ? out : "");
}

/* Runs `path` ("-": standard input) through c. */
static int run_input(const codec *c, const pipe_opts *o, const char *path)
{
    bool is_stdin = strcmp(path, "-") == 0;
    const char *shown = is_stdin ? "standard input" : path;
    codec_error err;
    sink k = {.fd = STDOUT_FILENO, .name = "standard output"};
    int rc = refuse_terminal(o, c, is_stdin);
    if (rc)
        return rc;
    int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        codec_error_set(&err, CODEC_E_TRANSIENT, CODEC_D_IO, "input", CODEC_NO_OFFSET,
                        "cannot open '%s': %s", shown, strerror(errno));
        if (fd >= 0 && !is_stdin)
            close(fd);
        return report(o, NULL, &k, &err);
    }
    if (S_ISDIR(st.st_mode)) {
        codec_error_set(&err, CODEC_E_TRANSIENT, CODEC_D_IO, "input", CODEC_NO_OFFSET,
                        "cannot read '%s': Is a directory", shown);
        close(fd);
        return report(o, NULL, &k, &err);
    }
    /* Standard output, -o FILE, or FILE.suffix beside the input. */
    char *derived = NULL;
    const char *target = o->output;
    if (!target && !is_stdin && !o->to_stdout) {
        derived = output_name(o, path, suffix_of(c));
        if (!derived) {
            fprintf(stderr, "codec: %s: unknown suffix (expected %s) -- ignored\n", path,
                    suffix_of(c));
            close(fd);
            return CLI_EXIT_USAGE;
        }
        target = derived;
    }
    cli_outfile out = {.fd = -1};
    if (target && !o->force && access(target, F_OK) == 0) {
        fprintf(stderr, "codec: %s already exists; not overwritten (use -f to overwrite)\n",
                target);
        rc = CLI_EXIT_USAGE;
    } else if (target) {
        /* the input's mode, as gzip gives it; from a pipe, fopen's */
        int mode = S_ISREG(st.st_mode) ? (int)(st.st_mode & 07777) : CLI_OUTFILE_MODE_KEEP;
        if (cli_outfile_open(&out, target, mode, &err)) {
            rc = report(o, NULL, &k, &err);
        } else {
            k.fd = out.fd;
            k.name = target;
        }
    } else {
        k.hold = true;
    }
    if (!rc) {
        off_t size = S_ISREG(st.st_mode) ? st.st_size : -1;
        int status = run_one(c, o, fd, shown, size, &k, &err);
        if (!status && target)
            status = cli_outfile_commit(&out, o->force, &err);
        else if (target)
            cli_outfile_abort(&out);
        if (status) {
            rc = report(o, is_stdin ? NULL : path, &k, &err);
        } else {
            verbose_line(o, shown, target, (uint64_t)(S_ISREG(st.st_mode) ? st.st_size : 0),
                         k.bytes);
            if (derived && !o->keep && unlink(path) != 0 && !o->quiet)
                fprintf(stderr, "codec: cannot remove '%s': %s\n", path, strerror(errno));
        }
    }
    if (!is_stdin)
        close(fd);
    free(derived);
    return rc;
}

/* ---- options ---------------------------------------------------------- */

static int parse_options(pipe_opts *o, const char *usage, int argc, char **argv,
                         const char **spec)
{
    static const struct option longs[] = {
        {"pipeline", required_argument, NULL, 'p'}, {"decompress", no_argument, NULL, 'd'},
        {"decode", no_argument, NULL, 'd'},         {"stdout", no_argument, NULL, 'c'},
        {"output", required_argument, NULL, 'o'},   {"keep", no_argument, NULL, 'k'},
        {"force", no_argument, NULL, 'f'},          {"quiet", no_argument, NULL, 'q'},
        {"verbose", no_argument, NULL, 'v'},        {"threads", required_argument, NULL, 'T'},
        {"no-check", no_argument, NULL, 'N'},       {"max-input", required_argument, NULL, 'm'},
        {"max-output", required_argument, NULL, 'M'}, {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    cli_options co;
    cli_options_start(&co, argv, usage, ":p:dco:kfqvT:h", longs);
    co.max_input = SIZE_MAX; /* streams have no need for a cap */
    int opt;
    while ((opt = cli_next_option(&co, argc, argv)) >= 0) {
        size_t size;
        char *end;
        switch (opt) {
        case 'p': *spec = optarg; break;
        case 'd': o->decode = true; break;
        case 'c': o->to_stdout = true; break;
        case 'o': o->output = optarg; break;
        case 'k': o->keep = true; break;
        case 'f': o->force = true; break;
        case 'q': o->quiet = true; break;
        case 'v': o->verbose = true; break;
        case 'N': o->check = false; break;
        case 'T':
            o->threads = strtol(optarg, &end, 10);
            if (*end || o->threads < 0 || o->threads > 200)
                return cli_usage_error(o->cmd, "bad -T '%s': expected 0..200 threads", optarg);
            break;
        case 'M':
            if (!cli_parse_size(optarg, &size))
                return cli_usage_error(o->cmd, "bad --max-output '%s': expected a size such "
                                               "as 64m or 4g", optarg);
            o->max_output = size;
            break;
        default:
            return cli_usage_error(o->cmd, "unexpected option");
        }
    }
    if (opt == CLI_OPTIONS_EXIT)
        return co.exit ? co.exit : -1;
    o->max_input = co.max_input;
    return CLI_EXIT_OK;
}

int cli_run_pipeline(int argc, char **argv, const char *usage, bool decode)
{
    pipe_opts o = {.cmd = argv[0], .decode = decode, .check = true};
    const char *spec = NULL;
    int rc = parse_options(&o, usage, argc, argv, &spec);
    if (rc)
        return rc < 0 ? CLI_EXIT_OK : rc;
    o.spec = spec;
    if (!spec)
        return cli_usage_error(o.cmd, "missing -p SPEC (the pipeline, e.g. -p 'zstd:3 | base64')");
    int files = argc - optind;
    if (o.output && files > 1)
        return cli_usage_error(o.cmd, "-o names one output: give one input file, or -c");
    if (o.output && o.to_stdout)
        return cli_usage_error(o.cmd, "-o and -c both name the output: give one of them");
    codec_error err;
    codec *c = command_codec(&o, &err);
    if (!c)
        return cli_fail(&err);
    rc = CLI_EXIT_OK;
    if (files == 0) {
        rc = run_input(c, &o, "-");
    } else {
        for (int i = optind; i < argc; i++) {
            int r = run_input(c, &o, argv[i]);
            if (!rc)
                rc = r;
        }
    }
    codec_free(c);
    return rc;
}
