/* peer.c — helpers shared by the peer adapters. */
#include "peer.h"

#include "codec/types.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int peer_reserve(peer_bytes *b, size_t want)
{
    if (want <= b->cap)
        return 0;
    uint8_t *d = realloc(b->data, want);
    if (!d)
        return -1;
    b->data = d;
    b->cap = want;
    return 0;
}

void peer_bytes_free(peer_bytes *b)
{
    free(b->data);
    memset(b, 0, sizeof *b);
}

int peer_level(const char *spec, int dflt, int lo, int hi, int *level, char *why, size_t cap)
{
    const char *colon = strchr(spec, ':');
    const char *num = colon ? colon + 1 : spec;
    if (*num == 0) {
        *level = dflt;
        return 0;
    }
    char *end;
    long v = strtol(num, &end, 10);
    if (*end != 0 || v < lo || v > hi) {
        snprintf(why, cap, "level '%s' is not in %d..%d", num, lo, hi);
        return -1;
    }
    *level = (int)v;
    return 0;
}

int peer_value_matches(const bench_payload *p, const void *value)
{
    codec_buf b;
    codec_buf_init(&b, NULL);
    int rc = bench_payload_render(p, value, &b) != 0 ? -1
             : b.len == p->rendered_len && memcmp(b.data, p->rendered, b.len) == 0 ? 1
                                                                       : 0;
    codec_buf_free(&b);
    return rc;
}

int peer_model_of(const bench_payload *p, const char *library, char *why, size_t cap)
{
    static const char *const NAMES[] = {"person", "order", "media-item", "media-content",
                                        "struct"};
    for (int i = 0; i < 5; i++)
        if (strcmp(p->name, NAMES[i]) == 0)
            return i;
    snprintf(why, cap, "the %s adapter maps person, order, media-item, media-content and "
                       "struct only", library);
    return -1;
}

void *peer_typed_open(const char *spec, const char *want, const bench_payload *p,
                      const char *library, char *why, size_t cap)
{
    int m = peer_model_of(p, library, why, cap);
    if (m < 0)
        return NULL;
    if (strcmp(spec, want) != 0) {
        snprintf(why, cap, "the %s peer's spec is \"%s\"", library, want);
        return NULL;
    }
    peer_model *s = malloc(sizeof *s);
    if (s)
        *s = (peer_model)m;
    return s;
}

/* ---- JSON peers ------------------------------------------------------------ */

static bool is_document(const bench_payload *p)
{
    return p->model && strcmp(p->model, "codec_value") == 0;
}

/* Users, Clients, twitter, and the five payloads every typed peer maps. */
static int json_model_of(const bench_payload *p, const char *library, unsigned can,
                         const char *int64_why, char *why, size_t cap)
{
    if (p->model && strcmp(p->model, "bench_users") == 0) {
        if (can & PEER_CAN_USERS)
            return PEER_USERS;
        snprintf(why, cap, "the %s adapter does not map Users", library);
        return -1;
    }
    if (p->model && strcmp(p->model, "bench_clients") == 0) {
        if (can & PEER_CAN_CLIENTS)
            return PEER_CLIENTS;
        if (int64_why)
            snprintf(why, cap, "%s", int64_why);
        else
            snprintf(why, cap, "the %s adapter does not map Clients", library);
        return -1;
    }
    if (p->model && strcmp(p->model, "bench_twitter") == 0) {
        if (can & PEER_CAN_TWITTER)
            return PEER_TWITTER;
        if (int64_why)
            snprintf(why, cap, "%s", int64_why);
        else
            snprintf(why, cap, "the %s adapter does not map twitter.json", library);
        return -1;
    }
    return peer_model_of(p, library, why, cap);
}

void *peer_json_open(const char *spec, const bench_payload *p, const char *library,
                     unsigned can, const char *int64_why, char *why, size_t cap)
{
    static const char *const SPECS[] = {"json", "dom", "validate", "stream"};
    static const unsigned NEEDS[] = {0, PEER_CAN_DOM, PEER_CAN_VALIDATE, PEER_CAN_STREAM};
    int mode = peer_enum_index(SPECS, 4, spec, strlen(spec));
    if (mode < 0 || (can & NEEDS[mode]) != NEEDS[mode]) {
        snprintf(why, cap, "the %s adapter has no \"%s\" cells", library, spec);
        return NULL;
    }
    int model;
    if (mode == PEER_DATABIND) {
        model = json_model_of(p, library, can, int64_why, why, cap);
    } else if (mode == PEER_STREAM) {
        model = p->model && !is_document(p) ? PEER_DOCUMENT : -1;
        if (model < 0)
            snprintf(why, cap, "stream cells read the generated models' JSON");
    } else if (mode == PEER_DOM && (can & PEER_CAN_TWITTER_DOM) && p->model &&
               strcmp(p->model, "bench_twitter") == 0) {
        model = PEER_TWITTER;
    } else {
        model = is_document(p) ? PEER_DOCUMENT : -1;
        if (model < 0)
            snprintf(why, cap, "%s cells read the real-world documents", spec);
    }
    if (model < 0)
        return NULL;
    peer_json_cell *c = malloc(sizeof *c);
    if (c)
        *c = (peer_json_cell){(peer_model)model, (peer_mode)mode};
    return c;
}

static const char HEX[] = "0123456789abcdef";

size_t peer_uuid_text(const bench_uuid *u, char *dst)
{
    size_t o = 0;
    for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            dst[o++] = '-';
        dst[o++] = HEX[u->bytes[i] >> 4];
        dst[o++] = HEX[u->bytes[i] & 15];
    }
    dst[o] = 0;
    return o;
}

static int hex_digit(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                          : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                                 : -1;
}

bool peer_uuid_parse(const char *s, size_t n, bench_uuid *u)
{
    if (n != PEER_UUID_LEN)
        return false;
    for (int i = 0, o = 0; i < 16; i++) {
        if (o == 8 || o == 13 || o == 18 || o == 23)
            if (s[o++] != '-')
                return false;
        int hi = hex_digit(s[o]), lo = hex_digit(s[o + 1]);
        if (hi < 0 || lo < 0)
            return false;
        u->bytes[i] = (uint8_t)(hi << 4 | lo);
        o += 2;
    }
    return true;
}

/* Exactly `n` decimal digits at s. */
static bool digits(const char *s, int n, int *v)
{
    *v = 0;
    for (int i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        *v = *v * 10 + (s[i] - '0');
    }
    return true;
}

size_t peer_date_text(bench_date d, char *dst)
{
    int32_t y;
    int m, day;
    codec_date_to_ymd((codec_date){d.days}, &y, &m, &day);
    return (size_t)snprintf(dst, PEER_DATE_LEN + 1, "%04d-%02d-%02d", (int)y, m, day);
}

bool peer_date_parse(const char *s, size_t n, bench_date *d)
{
    int y, m, day;
    codec_date cd;
    if (n != PEER_DATE_LEN || !digits(s, 4, &y) || s[4] != '-' || !digits(s + 5, 2, &m) ||
        s[7] != '-' || !digits(s + 8, 2, &day) || codec_date_from_ymd(y, m, day, &cd) != 0)
        return false;
    d->days = cd.days;
    return true;
}

size_t peer_timestamp_text(const bench_timestamp *t, char *dst)
{
    int64_t days = t->seconds >= 0 ? t->seconds / 86400 : (t->seconds - 86399) / 86400;
    int sec = (int)(t->seconds - days * 86400);
    size_t n = peer_date_text((bench_date){(int32_t)days}, dst);
    return n + (size_t)snprintf(dst + n, PEER_TIMESTAMP_LEN - n + 1, "T%02d:%02d:%02dZ",
                                sec / 3600, sec / 60 % 60, sec % 60);
}

bool peer_timestamp_parse(const char *s, size_t n, bench_timestamp *t)
{
    bench_date d;
    int h, m, sec;
    if (n != PEER_TIMESTAMP_LEN || !peer_date_parse(s, PEER_DATE_LEN, &d) || s[10] != 'T' ||
        !digits(s + 11, 2, &h) || s[13] != ':' || !digits(s + 14, 2, &m) || s[16] != ':' ||
        !digits(s + 17, 2, &sec) || s[19] != 'Z' || h > 23 || m > 59 || sec > 59)
        return false;
    *t = (bench_timestamp){(int64_t)d.days * 86400 + h * 3600 + m * 60 + sec, 0, 0};
    return true;
}

bool peer_text_parse(peer_text_form form, const char *s, size_t n, void *out)
{
    switch (form) {
    case PEER_UUID: return peer_uuid_parse(s, n, out);
    case PEER_DATE: return peer_date_parse(s, n, out);
    default: return peer_timestamp_parse(s, n, out);
    }
}

const char *const peer_eye_colors[3] = {"BROWN", "BLUE", "GREEN"};

int peer_enum_index(const char *const *names, int count, const char *s, size_t n)
{
    for (int i = 0; i < count; i++)
        if (strlen(names[i]) == n && memcmp(names[i], s, n) == 0)
            return i;
    return -1;
}

size_t peer_balance_from_double(double v, char *dst, size_t cap)
{
    int n = snprintf(dst, cap, "%.2f", v);
    return n < 0 || (size_t)n >= cap ? 0 : (size_t)n;
}
