/* machine.c — CPU, compiler, libraries and date for the report header. */
#include "machine.h"

#include "codec/codec.h"
#include "drivers.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void cpu_model(char *dst, size_t cap)
{
    snprintf(dst, cap, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[256];
    while (fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (strncmp(line, "model name", 10) == 0 && colon) {
            colon += 1 + (colon[1] == ' ');
            colon[strcspn(colon, "\n")] = 0;
            snprintf(dst, cap, "%s", colon);
            break;
        }
    }
    fclose(f);
}

void bench_machine_get(bench_machine *m)
{
    memset(m, 0, sizeof *m);
    cpu_model(m->cpu, sizeof m->cpu);
    m->cores = (int)sysconf(_SC_NPROCESSORS_ONLN);
    codec_cpu_feature_names(codec_cpu_features(), m->cpu_features, sizeof m->cpu_features);
#if defined(__clang__)
    snprintf(m->compiler, sizeof m->compiler, "clang %s", __clang_version__);
#elif defined(__GNUC__)
    snprintf(m->compiler, sizeof m->compiler, "gcc %s", __VERSION__);
#endif
    snprintf(m->flags, sizeof m->flags, "%s", BENCH_C_FLAGS);
    if (gethostname(m->host, sizeof m->host - 1) != 0)
        snprintf(m->host, sizeof m->host, "host");
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(m->date, sizeof m->date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    strftime(m->stamp, sizeof m->stamp, "%Y-%m-%dT%H%M%SZ", &tm);
    size_t len = (size_t)snprintf(m->libraries, sizeof m->libraries, "%s",
                                  bench_driver_codec.version());
    for (size_t i = 0; i < bench_peer_count() && len < sizeof m->libraries; i++)
        len += (size_t)snprintf(m->libraries + len, sizeof m->libraries - len, ", %s",
                                bench_peer_at(i)->version());
}
