/* jdk.c — peer: the JDK reference. The figures come from bench/jvm/
 * JvmBench.java (compiled at build time when javac is found), run once per
 * suite with every JDK cell on payloads dumped to a temporary directory,
 * with the same profile (iterations, iteration length; see
 * JDK_JIT_WARMUP_SECONDS for the warm-up).
 * Specs: base64, hex, crc32c, deflate:N, gzip. */
#include "peer.h"

#include "../child.h"
#include "../payloads/payloads.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The JIT needs most of a second of a loop on a loaded machine before its
 * optimising compiler has run: the first cell of each operation warms up at
 * least this long, whatever the profile; later cells reuse compiled code. */
#define JDK_JIT_WARMUP_SECONDS 1.0

/* The JVM that ran reports its version on its first output line. */
static char jdk_seen[96] = "JDK (not run)";

static const char *jdk_version(void)
{
    return jdk_seen;
}

static void *jdk_open(const char *spec, const bench_payload *p, char *why, size_t cap)
{
    (void)spec;
    (void)p;
    snprintf(why, cap, "the JDK runs out of process");
    return NULL;
}

static void mark_all(bench_cell **cells, size_t n, bench_status s, const char *why)
{
    for (size_t i = 0; i < n; i++) {
        cells[i]->status = s;
        snprintf(cells[i]->reason, sizeof cells[i]->reason, "%s", why);
    }
}

static void parse_series(char *text, bench_series *s)
{
    for (char *tok = strtok(text, ","); tok; tok = strtok(NULL, ","))
        bench_series_add(s, strtod(tok, NULL));
}

/* Applies one output line "CELL\tSTATUS\tBYTES\tENC\tDEC" to its cell. */
static void apply_line(char *line, bench_cell **cells, char **names, size_t n)
{
    char *field[5] = {0};
    char *save = NULL;
    int k = 0;
    for (char *tok = strtok_r(line, "\t\n", &save); tok && k < 5;
         tok = strtok_r(NULL, "\t\n", &save))
        field[k++] = tok;
    if (k >= 3 && strcmp(field[0], "#jdk") == 0) {
        snprintf(jdk_seen, sizeof jdk_seen, "JDK %s (%s)", field[1], field[2]);
        return;
    }
    if (k < 2)
        return;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(names[i], field[0]) != 0 || cells[i]->status != BENCH_PENDING)
            continue;
        bench_cell *c = cells[i];
        if (strcmp(field[1], "ok") != 0 || k < 5) {
            c->status = BENCH_FAILED;
            snprintf(c->reason, sizeof c->reason, "round trip differs in the JDK");
            return;
        }
        c->status = BENCH_OK;
        c->encoded_len = strtoull(field[2], NULL, 10);
        parse_series(field[3], &c->enc);
        parse_series(field[4], &c->dec);
        c->enc_allocs = c->dec_allocs = (bench_allocs){-1, -1, -1, -1};
        return;
    }
}

/* Removes the payload files that bench_payloads_dump() wrote, then dir. */
static void remove_dump(const char *dir)
{
    char path[4096];
    for (size_t i = 0; i < bench_payload_count(); i++) {
        snprintf(path, sizeof path, "%s/%s", dir, bench_payload_at(i)->file);
        unlink(path);
    }
    rmdir(dir);
}

static int jdk_run(bench_cell **cells, size_t n, const bench_profile *prof)
{
#ifndef BENCH_JVM_CLASSES
    mark_all(cells, n, BENCH_NOT_BUILT, "javac was not found when codec-bench was built");
    return 0;
#else
    char dir[] = "/tmp/codec-bench-jvm-XXXXXX";
    if (!mkdtemp(dir)) {
        mark_all(cells, n, BENCH_NOT_BUILT, "could not make a directory for the JDK");
        return -1;
    }
    char warm[16], meas[16], ms[16], jit_ms[16];
    snprintf(warm, sizeof warm, "%d", prof->warmup_iters);
    snprintf(meas, sizeof meas, "%d", prof->measure_iters);
    snprintf(ms, sizeof ms, "%d", (int)(prof->iter_seconds * 1000 + 0.5));
    snprintf(jit_ms, sizeof jit_ms, "%d", (int)(JDK_JIT_WARMUP_SECONDS * 1000));
    char **argv = calloc(n + 10, sizeof *argv);
    char **names = calloc(n, sizeof *names);
    int rc = -1;
    if (bench_payloads_dump(dir) != 0) {
        mark_all(cells, n, BENCH_NOT_BUILT, "could not dump the payloads for the JDK");
        rc = 0;
        goto done;
    }
    if (!argv || !names)
        goto done;
    int a = 0;
    argv[a++] = "java";
    argv[a++] = "-cp";
    argv[a++] = BENCH_JVM_CLASSES;
    argv[a++] = "JvmBench";
    argv[a++] = dir;
    argv[a++] = warm;
    argv[a++] = meas;
    argv[a++] = ms;
    argv[a++] = jit_ms;
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(cells[i]->spec) + strlen(cells[i]->payload->file) + 2;
        if (!(names[i] = malloc(len)))
            goto done;
        snprintf(names[i], len, "%s@%s", cells[i]->spec, cells[i]->payload->file);
        argv[a++] = names[i];
    }
    int out;
    pid_t pid = bench_spawn_reading("java", true, argv, &out);
    if (pid < 0) {
        mark_all(cells, n, BENCH_NOT_BUILT, "java is not on PATH");
        rc = 0;
        goto done;
    }
    FILE *f = fdopen(out, "r");
    char line[4096];
    while (f && fgets(line, sizeof line, f))
        apply_line(line, cells, names, n);
    if (f)
        fclose(f);
    int status;
    waitpid(pid, &status, 0);
    for (size_t i = 0; i < n; i++)
        if (cells[i]->status == BENCH_PENDING) {
            cells[i]->status = BENCH_FAILED;
            snprintf(cells[i]->reason, sizeof cells[i]->reason, "the JVM gave no result");
        }
    rc = 0;
done:
    if (rc != 0)
        mark_all(cells, n, BENCH_FAILED, "out of memory");
    for (size_t i = 0; names && i < n; i++)
        free(names[i]);
    free(names);
    free(argv);
    remove_dump(dir);
    return rc;
#endif
}

const bench_driver bench_peer_jdk = {
    "jdk", jdk_version, jdk_open, NULL, NULL, NULL, NULL, NULL, NULL, NULL, jdk_run};
