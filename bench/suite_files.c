/* suite_files.c — see suite_files.h. */
#include "suite_files.h"

#include <errno.h>
#include <sys/stat.h>

void bench_suite_json_head(json_out *j, const char *suite, const bench_profile *prof,
                           const bench_machine *m)
{
    jo_begin_object(j);
    jo_key(j, "suite"), jo_string(j, suite);
    jo_key(j, "profile"), jo_string(j, prof->name);
    jo_key(j, "machine");
    jo_begin_object(j);
    jo_key(j, "cpu"), jo_string(j, m->cpu);
    jo_key(j, "cores"), jo_int(j, m->cores);
    jo_key(j, "host"), jo_string(j, m->host);
    jo_key(j, "date"), jo_string(j, m->date);
    jo_end_object(j);
}

int bench_suite_write_files(const char *dir, const char *name, const codec_buf *json,
                            void (*md)(FILE *f, const void *ctx), const void *ctx)
{
    if (mkdir(dir, 0755) != 0 && errno != EEXIST)
        return -1;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.json", dir, name);
    FILE *f = fopen(path, "wb");
    int rc = f && fwrite(json->data, 1, json->len, f) == json->len ? 0 : -1;
    if (f && fclose(f) != 0)
        rc = -1;
    snprintf(path, sizeof path, "%s/%s.md", dir, name);
    if (!(f = fopen(path, "w")))
        return -1;
    md(f, ctx);
    return fclose(f) != 0 ? -1 : rc;
}
