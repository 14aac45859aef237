/* inspect.c — the outer layer of a payload, from its magic bytes (inspect.h).
 *
 * Every length read from the input is checked against what is left before
 * it is used (`n - pos < need`, never `pos + need > n`, so nothing wraps).
 * Layouts: RFC 1952 (gzip), RFC 1950 (zlib), RFC 8878 (zstd), the LZ4
 * frame format 1.6, and WIRE-FORMATS.md (versioned header, envelope). */
#include "inspect.h"

#include "codec/compose.h"
#include "codec/types.h"
/* zlib and libzstd through libcodec's tables, opened on first use like the
 * library's own calls (open_lib()): the command links neither, so only an
 * inspect of a gzip, zlib or zstd payload loads one. */
#define CODEC_DYNLIB_CALLS
#include "transforms/compress/libz_internal.h"
#include "transforms/compress/libzstd_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

typedef enum format_id {
    F_EMPTY, F_GZIP, F_ZLIB, F_ZSTD, F_LZ4, F_VERSIONED, F_ENVELOPE, F_JSON, F_HEX,
    F_BASE64, F_CBOR, F_MSGPACK, F_UNKNOWN
} format_id;

static const char *const format_names[] = {
    "empty", "gzip", "zlib", "zstd", "lz4", "versioned", "envelope", "json", "hex",
    "base64", "cbor", "msgpack", "unknown"};

/* How deep text encodings are looked into (base64 of hex of ...). */
#define INSPECT_MAX_NESTING 4

#define ZSTD_MAGIC 0xFD2FB528u
#define ZSTD_SKIPPABLE_MASK 0xFFFFFFF0u
#define ZSTD_SKIPPABLE_MAGIC 0x184D2A50u
#define LZ4_MAGIC 0x184D2204u

/* ---------------------------------------------------------------------------
 * Report helpers
 * ------------------------------------------------------------------------ */

static void add(inspect_report *r, const char *key, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void add(inspect_report *r, const char *key, const char *fmt, ...)
{
    if (r->count == INSPECT_MAX_FIELDS)
        return;  /* no format here has that many fields */
    inspect_field *f = &r->fields[r->count++];
    snprintf(f->key, sizeof f->key, "%s", key);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->value, sizeof f->value, fmt, ap);
    va_end(ap);
}

static int fail(inspect_report *r, int family, int detail, uint64_t offset, const char *fmt,
                ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

static int fail(inspect_report *r, int family, int detail, uint64_t offset, const char *fmt,
                ...)
{
    char msg[sizeof r->err.message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    r->status = codec_error_set(&r->err, family, detail, r->format, offset, "%s", msg);
    return r->status;
}

/* Opens zlib or libzstd before the first call into it; one that cannot be
 * loaded is the report's CODEC_E_UNSUPPORTED (the loader's message). */
static int open_lib(codec__dynlib *lib, inspect_report *r)
{
    int rc = codec__dynlib_open(lib, r->format, &r->err);
    if (rc)
        r->status = rc;
    return rc;
}

static int truncated(inspect_report *r, size_t n, const char *what)
{
    return fail(r, CODEC_E_INVALID_PAYLOAD, CODEC_D_TRUNCATED, n, "truncated %s", what);
}

/* Payload text (a file name, a key id) as printable ASCII with \\ and \xNN
 * escapes, cut with "..." where the field's line is full. */
static void add_escaped(inspect_report *r, const char *key, const uint8_t *s, size_t len)
{
    char text[sizeof r->fields[0].value];
    size_t used = 0, i = 0;
    for (; i < len && used + 8 < sizeof text; i++) {  /* room for \xNN, "..." and NUL */
        uint8_t c = s[i];
        if (c == '\\')
            used += (size_t)snprintf(text + used, sizeof text - used, "\\\\");
        else if (c >= 0x20 && c < 0x7F)
            text[used++] = (char)c;
        else
            used += (size_t)snprintf(text + used, sizeof text - used, "\\x%02x", c);
    }
    snprintf(text + used, sizeof text - used, "%s", i < len ? "..." : "");
    add(r, key, "%s", text);
}

static uint32_t le16(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t be16(const uint8_t *p) { return (uint32_t)p[0] << 8 | p[1]; }

static uint32_t be32(const uint8_t *p) { return be16(p) << 16 | be16(p + 2); }

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t le64(const uint8_t *p)
{
    return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

/* ---------------------------------------------------------------------------
 * Detection (magic bytes only)
 * ------------------------------------------------------------------------ */

static bool is_line_break(uint8_t c) { return c == '\n' || c == '\r'; }

static bool is_hex_digit(uint8_t c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static bool is_base64_core(uint8_t c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

/* Text layouts (hex, base64) are decided by scanning all of it once. Line
 * breaks may wrap the text, but only at a fixed width (as base64 -w and
 * MIME do): lines of varying length are prose or numbers, not an encoding. */
typedef struct text_scan {
    size_t symbols, pad, lines, width, last_width;
    bool hex_only, standard, url, upper, lower, pad_inside, other, ragged;
} text_scan;

static void end_line(text_scan *t, size_t len)
{
    if (t->lines == 1)
        t->width = len;
    else if (t->last_width != t->width)
        t->ragged = true;  /* a line before this one was short */
    t->last_width = len;
}

static void scan_char(text_scan *t, uint8_t c)
{
    if (c == '=') {
        t->pad++;
        return;
    }
    if (t->pad)
        t->pad_inside = true;  /* a symbol after padding */
    t->symbols++;
    t->hex_only &= is_hex_digit(c);
    t->upper |= c >= 'A' && c <= 'F';
    t->lower |= c >= 'a' && c <= 'f';
    if (c == '+' || c == '/')
        t->standard = true;
    else if (c == '-' || c == '_')
        t->url = true;
    else if (!is_base64_core(c))
        t->other = true;
}

static void scan_text(const uint8_t *p, size_t n, text_scan *t)
{
    memset(t, 0, sizeof *t);
    t->hex_only = true;
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        if (is_line_break(p[i])) {
            if (len)
                end_line(t, len);
            len = 0;
            continue;
        }
        if (len++ == 0)
            t->lines++;
        scan_char(t, p[i]);
    }
    if (len)
        end_line(t, len);
    if (t->last_width > t->width)
        t->ragged = true;
}

static bool is_hex_text(const text_scan *t)
{
    return t->symbols && !t->pad && !t->ragged && t->hex_only && t->symbols % 2 == 0;
}

static bool is_base64_text(const text_scan *t)
{
    if (!t->symbols || t->other || t->ragged || t->pad_inside || (t->standard && t->url) ||
        t->pad > 2)
        return false;
    return t->pad ? (t->symbols + t->pad) % 4 == 0 : t->symbols % 4 != 1;
}

static bool is_zlib(const uint8_t *p, size_t n)
{
    /* CM 8 with a 32 KiB window, and the FCHECK bits (RFC 1950 §2.2). */
    return n >= 2 && p[0] == 0x78 && ((unsigned)p[0] << 8 | p[1]) % 31 == 0;
}

static format_id detect(const uint8_t *p, size_t n)
{
    if (n == 0)
        return F_EMPTY;
    if (n >= 2 && p[0] == 0x1F && p[1] == 0x8B)
        return F_GZIP;
    if (n >= 4 && (le32(p) == ZSTD_MAGIC ||
                   (le32(p) & ZSTD_SKIPPABLE_MASK) == ZSTD_SKIPPABLE_MAGIC))
        return F_ZSTD;
    if (n >= 4 && le32(p) == LZ4_MAGIC)
        return F_LZ4;
    if (n >= 2 && p[0] == 0xC0 && p[1] == 0xDC)
        return F_VERSIONED;
    /* "JC" then a control byte: text starting with "JC" stays text. */
    if (n >= 3 && p[0] == 0x4A && p[1] == 0x43 && p[2] < 0x20)
        return F_ENVELOPE;
    if (is_zlib(p, n))
        return F_ZLIB;
    size_t i = 0;
    while (i < n && (p[i] == ' ' || p[i] == '\t' || is_line_break(p[i])))
        i++;
    if (i < n && (p[i] == '{' || p[i] == '['))
        return F_JSON;
    text_scan t;
    scan_text(p, n, &t);
    if (is_hex_text(&t))
        return F_HEX;
    if (is_base64_text(&t))
        return F_BASE64;
    return F_UNKNOWN;
}

/* ---------------------------------------------------------------------------
 * Deflate streams (gzip members, zlib): inflated into a scratch window only
 * to find where each ends and how much it decodes to.
 * ------------------------------------------------------------------------ */

typedef struct deflate_walk {
    size_t end;          /* offset just past the deflate data */
    uint64_t decoded;
    bool over_budget;    /* stopped before the end: `end` is unknown */
} deflate_walk;

static int walk_deflate(z_stream *zs, const uint8_t *p, size_t n, size_t start,
                        uint64_t budget, deflate_walk *w, inspect_report *r)
{
    uint8_t out[16384];
    size_t fed = 0;
    memset(w, 0, sizeof *w);
    if (inflateReset(zs) != Z_OK)
        return fail(r, CODEC_E_NOMEM, 0, start, "inflate reset failed");
    zs->avail_in = 0;
    for (;;) {
        if (zs->avail_in == 0 && n - start > fed) {
            size_t chunk = n - start - fed;
            zs->next_in = (Bytef *)(uintptr_t)(p + start + fed);  /* zlib never writes it */
            zs->avail_in = chunk > UINT_MAX ? UINT_MAX : (uInt)chunk;
            fed += zs->avail_in;
        }
        zs->next_out = out;
        zs->avail_out = sizeof out;
        int rc = inflate(zs, Z_NO_FLUSH);
        w->decoded += sizeof out - zs->avail_out;
        size_t at = start + fed - zs->avail_in;
        if (rc == Z_STREAM_END) {
            w->end = at;
            return CODEC_OK;
        }
        if (rc == Z_MEM_ERROR)
            return fail(r, CODEC_E_NOMEM, 0, at, "out of memory inflating");
        if (rc == Z_BUF_ERROR)
            return truncated(r, n, "deflate data");
        if (rc != Z_OK)
            return fail(r, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT, at,
                        "corrupt deflate data: %s", zs->msg ? zs->msg : "unknown error");
        if (w->decoded > budget) {
            w->over_budget = true;
            return CODEC_OK;
        }
    }
}

static void add_decoded(inspect_report *r, const deflate_walk *w, uint64_t budget)
{
    if (w->over_budget)
        add(r, "decoded size", "over %llu (walk stopped)", (unsigned long long)budget);
    else
        add(r, "decoded size", "%llu", (unsigned long long)w->decoded);
}

static void add_trailing(inspect_report *r, size_t at, size_t n)
{
    if (at < n)
        add(r, "trailing bytes", "%zu", n - at);
}

/* ---------------------------------------------------------------------------
 * gzip (RFC 1952): members are walked to count them and to find each
 * trailer; a file may hold several members back to back.
 * ------------------------------------------------------------------------ */

enum { GZ_FHCRC = 2, GZ_FEXTRA = 4, GZ_FNAME = 8, GZ_FCOMMENT = 16, GZ_RESERVED = 0xE0 };

static const char *gzip_os_name(unsigned os)
{
    static const char *const names[] = {
        "fat", "amiga", "vms", "unix", "vm/cms", "atari tos", "hpfs", "macintosh",
        "z-system", "cp/m", "tops-20", "ntfs", "qdos", "acorn riscos"};
    if (os < sizeof names / sizeof names[0])
        return names[os];
    return os == 255 ? "unknown" : "undefined";
}

static void add_mtime(inspect_report *r, uint32_t mtime)
{
    time_t t = (time_t)mtime;
    struct tm tm;
    char when[32];
    if (mtime && gmtime_r(&t, &tm) && strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm))
        add(r, "mtime", "%u (%s)", mtime, when);
    else
        add(r, "mtime", "%u", mtime);
}

/* Skips a zero-terminated header string at *pos; false when unterminated. */
static bool skip_cstring(const uint8_t *p, size_t n, size_t *pos, size_t *len)
{
    const uint8_t *nul = memchr(p + *pos, 0, n - *pos);
    if (!nul)
        return false;
    *len = (size_t)(nul - (p + *pos));
    *pos += *len + 1;
    return true;
}

/* Reads the member header at p[at..n); *body is where its deflate data
 * starts. The first member's fields go into the report. */
static int gzip_header(const uint8_t *p, size_t n, size_t at, bool first, size_t *body,
                       inspect_report *r)
{
    if (n - at < 10)
        return truncated(r, n, "member header");
    unsigned cm = p[at + 2], flg = p[at + 3];
    if (cm != 8)
        return fail(r, CODEC_E_UNSUPPORTED, CODEC_D_CORRUPT, at + 2,
                    "compression method %u (only 8, deflate, is defined)", cm);
    if (flg & GZ_RESERVED)
        return fail(r, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT, at + 3,
                    "reserved flag bits set (flags 0x%02x)", flg);
    if (first) {
        add_mtime(r, le32(p + at + 4));
        add(r, "os", "%u (%s)", p[at + 9], gzip_os_name(p[at + 9]));
    }
    size_t pos = at + 10, len;
    if (flg & GZ_FEXTRA) {
        if (n - pos < 2 || n - pos - 2 < le16(p + pos))
            return truncated(r, n, "extra field");
        pos += 2 + le16(p + pos);
    }
    if (flg & GZ_FNAME) {
        size_t name = pos;
        if (!skip_cstring(p, n, &pos, &len))
            return truncated(r, n, "file name");
        if (first)
            add_escaped(r, "name", p + name, len);
    }
    if ((flg & GZ_FCOMMENT) && !skip_cstring(p, n, &pos, &len))
        return truncated(r, n, "comment");
    if (flg & GZ_FHCRC) {
        if (n - pos < 2)
            return truncated(r, n, "header crc");
        pos += 2;
    }
    *body = pos;
    return CODEC_OK;
}

static bool gzip_magic_at(const uint8_t *p, size_t n, size_t at)
{
    return n - at >= 2 && p[at] == 0x1F && p[at + 1] == 0x8B;
}

static int gzip_members(z_stream *zs, const uint8_t *p, size_t n, uint64_t budget,
                        inspect_report *r)
{
    size_t at = 0;
    uint64_t members = 0;
    uint32_t isize = 0;
    deflate_walk total = {0, 0, false};
    do {
        size_t body = 0;
        deflate_walk w;
        int rc = gzip_header(p, n, at, members == 0, &body, r);
        if (!rc)
            rc = walk_deflate(zs, p, n, body,
                              budget > total.decoded ? budget - total.decoded : 0, &w, r);
        if (rc)
            return rc;
        total.decoded += w.decoded;
        if (w.over_budget) {
            /* Unwalked: the last 4 bytes are the last trailer's ISIZE if the file is whole. */
            add(r, "isize", "%u (last 4 bytes, not walked)", le32(p + n - 4));
            total.over_budget = true;
            add_decoded(r, &total, budget);
            return CODEC_OK;
        }
        if (n - w.end < 8)
            return truncated(r, n, "member trailer");
        isize = le32(p + w.end + 4);
        members++;
        at = w.end + 8;
    } while (gzip_magic_at(p, n, at));
    if (members > 1)
        add(r, "members", "%llu", (unsigned long long)members);
    add(r, "isize", "%u", isize);
    add_decoded(r, &total, budget);
    add_trailing(r, at, n);
    return CODEC_OK;
}

static int inspect_gzip(const uint8_t *p, size_t n, uint64_t budget, inspect_report *r)
{
    if (open_lib(&codec__libz, r))
        return r->status;
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (inflateInit2(&zs, -MAX_WBITS) != Z_OK)
        return fail(r, CODEC_E_NOMEM, 0, 0, "cannot start inflate");
    int rc = gzip_members(&zs, p, n, budget, r);
    inflateEnd(&zs);
    return rc;
}

/* ---------------------------------------------------------------------------
 * zlib (RFC 1950): CMF, FLG, [DICTID], deflate data, Adler-32.
 * ------------------------------------------------------------------------ */

static int inspect_zlib(const uint8_t *p, size_t n, uint64_t budget, inspect_report *r)
{
    static const char *const levels[] = {"fastest", "fast", "default", "maximum"};
    unsigned flg = p[1];
    add(r, "window", "%u", 1u << ((p[0] >> 4) + 8));
    add(r, "level", "%u (%s)", flg >> 6, levels[flg >> 6]);
    if (flg & 0x20) {
        if (n < 6)
            return truncated(r, n, "dictionary id");
        add(r, "dictionary id", "0x%08x", be32(p + 2));
        return CODEC_OK;  /* the stream cannot be inflated without the dictionary */
    }
    if (open_lib(&codec__libz, r))
        return r->status;
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (inflateInit2(&zs, -MAX_WBITS) != Z_OK)
        return fail(r, CODEC_E_NOMEM, 0, 0, "cannot start inflate");
    deflate_walk w;
    int rc = walk_deflate(&zs, p, n, 2, budget, &w, r);
    inflateEnd(&zs);
    if (rc)
        return rc;
    add_decoded(r, &w, budget);
    if (w.over_budget)
        return CODEC_OK;
    if (n - w.end < 4)
        return truncated(r, n, "adler-32 trailer");
    add_trailing(r, w.end + 4, n);
    return CODEC_OK;
}

/* ---------------------------------------------------------------------------
 * zstd (RFC 8878 §3.1.1): frames and skippable frames back to back; the
 * first frame's header is reported, libzstd finds where each frame ends.
 * ------------------------------------------------------------------------ */

typedef struct zstd_header {
    uint64_t window, content_size, dict_id;
    bool has_content_size, has_dict, checksum;
} zstd_header;

static int zstd_frame_header(const uint8_t *p, size_t n, size_t at, zstd_header *h,
                             inspect_report *r)
{
    static const unsigned dict_bytes[] = {0, 1, 2, 4};
    if (n - at < 5)
        return truncated(r, n, "frame header");
    unsigned fhd = p[at + 4];
    if (fhd & 0x08)
        return fail(r, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT, at + 4,
                    "reserved bit set in the frame header descriptor");
    bool single = fhd & 0x20;
    unsigned fcs_flag = fhd >> 6;
    size_t fcs_bytes = fcs_flag ? (size_t)1 << fcs_flag : single;
    size_t did_bytes = dict_bytes[fhd & 3];
    size_t pos = at + 5;
    memset(h, 0, sizeof *h);
    h->checksum = fhd & 0x04;
    if (!single) {
        if (n - pos < 1)
            return truncated(r, n, "window descriptor");
        unsigned wd = p[pos++];
        uint64_t base = (uint64_t)1 << (10 + (wd >> 3));
        h->window = base + (base / 8) * (wd & 7);
    }
    if (n - pos < did_bytes + fcs_bytes)
        return truncated(r, n, "frame header");
    for (size_t i = 0; i < did_bytes; i++)
        h->dict_id |= (uint64_t)p[pos + i] << (8 * i);
    h->has_dict = h->dict_id != 0;  /* id 0 means "no dictionary" (§3.1.1.1.3) */
    pos += did_bytes;
    h->has_content_size = fcs_bytes > 0;
    for (size_t i = 0; i < fcs_bytes; i++)
        h->content_size |= (uint64_t)p[pos + i] << (8 * i);
    if (fcs_bytes == 2)
        h->content_size += 256;
    if (single)
        h->window = h->content_size;
    return CODEC_OK;
}

static void add_zstd_header(inspect_report *r, const zstd_header *h)
{
    add(r, "window size", "%llu", (unsigned long long)h->window);
    add(r, "checksum", "%s", h->checksum ? "yes" : "no");
    if (h->has_dict)
        add(r, "dictionary id", "%llu", (unsigned long long)h->dict_id);
}

static int inspect_zstd(const uint8_t *p, size_t n, inspect_report *r)
{
    size_t at = 0;
    uint64_t frames = 0, skippable = 0, regular = 0, content = 0;
    bool all_sizes = true;
    if (open_lib(&codec__libzstd, r))
        return r->status;
    while (n - at >= 4) {
        uint32_t magic = le32(p + at);
        if ((magic & ZSTD_SKIPPABLE_MASK) == ZSTD_SKIPPABLE_MAGIC) {
            skippable++;
        } else if (magic == ZSTD_MAGIC) {
            zstd_header h;
            int rc = zstd_frame_header(p, n, at, &h, r);
            if (rc)
                return rc;
            if (regular++ == 0)
                add_zstd_header(r, &h);
            if (!h.has_content_size || content + h.content_size < content)
                all_sizes = false;
            content += h.content_size;
        } else {
            break;
        }
        size_t len = ZSTD_findFrameCompressedSize(p + at, n - at);
        if (ZSTD_isError(len))
            return fail(r, CODEC_E_INVALID_PAYLOAD,
                        ZSTD_getErrorCode(len) == ZSTD_error_srcSize_wrong ? CODEC_D_TRUNCATED
                                                                           : CODEC_D_CORRUPT,
                        at, "frame %llu: %s", (unsigned long long)frames + 1,
                        ZSTD_getErrorName(len));
        frames++;
        at += len;
    }
    if (regular && all_sizes)
        add(r, "content size", "%llu", (unsigned long long)content);
    if (frames > 1)
        add(r, "frames", "%llu", (unsigned long long)frames);
    if (skippable)
        add(r, "skippable frames", "%llu", (unsigned long long)skippable);
    add_trailing(r, at, n);
    return CODEC_OK;
}

/* ---------------------------------------------------------------------------
 * LZ4 frame format 1.6: header, then blocks up to an end mark.
 * ------------------------------------------------------------------------ */

enum { LZ4_DICT_ID = 1, LZ4_RESERVED = 2, LZ4_CONTENT_CHECKSUM = 4, LZ4_CONTENT_SIZE = 8,
       LZ4_BLOCK_CHECKSUM = 16, LZ4_INDEPENDENT = 32 };

typedef struct lz4_walk {
    size_t at;          /* start of the current frame, then its end */
    uint64_t blocks;
} lz4_walk;

typedef struct lz4_descriptor {
    size_t body;         /* where the first block starts */
    uint32_t max_block;
    unsigned flg;
} lz4_descriptor;

static int lz4_header(const uint8_t *p, size_t n, const lz4_walk *w, bool first,
                      lz4_descriptor *d, inspect_report *r)
{
    size_t at = w->at, pos = at + 6;
    if (n - at < 7)
        return truncated(r, n, "frame descriptor");
    unsigned flg = p[at + 4], bd = p[at + 5];
    if (flg >> 6 != 1)
        return fail(r, CODEC_E_UNSUPPORTED, CODEC_D_VERSION, at + 4, "frame version %u",
                    flg >> 6);
    if ((flg & LZ4_RESERVED) || (bd & 0x8F) || ((bd >> 4) & 7) < 4)
        return fail(r, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT, at + 4,
                    "bad frame descriptor (FLG 0x%02x, BD 0x%02x)", flg, bd);
    d->max_block = (uint32_t)1 << (8 + 2 * ((bd >> 4) & 7));
    size_t extra = (flg & LZ4_CONTENT_SIZE ? 8 : 0) + (flg & LZ4_DICT_ID ? 4 : 0) + 1;
    if (n - pos < extra)
        return truncated(r, n, "frame descriptor");
    if (first) {
        add(r, "block size", "%u", d->max_block);
        add(r, "block mode", "%s", flg & LZ4_INDEPENDENT ? "independent" : "linked");
        add(r, "block checksum", "%s", flg & LZ4_BLOCK_CHECKSUM ? "yes" : "no");
        add(r, "content checksum", "%s", flg & LZ4_CONTENT_CHECKSUM ? "yes" : "no");
        if (flg & LZ4_CONTENT_SIZE)
            add(r, "content size", "%llu", (unsigned long long)le64(p + pos));
        if (flg & LZ4_DICT_ID)
            add(r, "dictionary id", "%u", le32(p + pos + (flg & LZ4_CONTENT_SIZE ? 8 : 0)));
    }
    d->body = pos + extra;
    d->flg = flg;
    return CODEC_OK;
}

static int lz4_frame(const uint8_t *p, size_t n, lz4_walk *w, bool first, inspect_report *r)
{
    lz4_descriptor d = {0, 0, 0};
    int rc = lz4_header(p, n, w, first, &d, r);
    if (rc)
        return rc;
    size_t pos = d.body, block_checksum = d.flg & LZ4_BLOCK_CHECKSUM ? 4 : 0;
    for (;;) {
        if (n - pos < 4)
            return truncated(r, n, "block header");
        uint32_t word = le32(p + pos), size = word & 0x7FFFFFFFu;
        if (word == 0)
            break;
        if (size > d.max_block)
            return fail(r, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT, pos,
                        "block of %u bytes exceeds the block size %u", size, d.max_block);
        if (n - pos - 4 < size + block_checksum)
            return truncated(r, n, "block");
        pos += 4 + size + block_checksum;
        w->blocks++;
    }
    pos += 4;
    if (d.flg & LZ4_CONTENT_CHECKSUM) {
        if (n - pos < 4)
            return truncated(r, n, "content checksum");
        pos += 4;
    }
    w->at = pos;
    return CODEC_OK;
}

static int inspect_lz4(const uint8_t *p, size_t n, inspect_report *r)
{
    lz4_walk w = {0, 0};
    uint64_t frames = 0;
    do {
        int rc = lz4_frame(p, n, &w, frames == 0, r);
        if (rc)
            return rc;
        frames++;
    } while (n - w.at >= 4 && le32(p + w.at) == LZ4_MAGIC);
    add(r, "blocks", "%llu", (unsigned long long)w.blocks);
    if (frames > 1)
        add(r, "frames", "%llu", (unsigned long long)frames);
    add_trailing(r, w.at, n);
    return CODEC_OK;
}

/* ---------------------------------------------------------------------------
 * codec's own framings (WIRE-FORMATS.md)
 * ------------------------------------------------------------------------ */

/* A field of the library's inspect operation, as a report line. */
static void add_stage_field(void *ctx, const char *key, const char *value, size_t len,
                            bool from_payload)
{
    if (from_payload)
        add_escaped(ctx, key, (const uint8_t *)value, len);
    else
        add(ctx, key, "%.*s", (int)len, value);
}

/* The header as the stage's own decoder reads it (codec_inspect). */
static int inspect_stage(const uint8_t *p, size_t n, inspect_report *r, size_t *header_len)
{
    r->status = codec_inspect(r->format, p, n, add_stage_field, r, header_len, &r->err);
    return r->status;
}

static int inspect_versioned(const uint8_t *p, size_t n, inspect_report *r)
{
    size_t header;
    int rc = inspect_stage(p, n, r, &header);
    if (rc == CODEC_OK)
        add(r, "payload format", "%s", format_names[detect(p + header, n - header)]);
    return rc;
}

/* ---------------------------------------------------------------------------
 * Text
 * ------------------------------------------------------------------------ */

static void inspect_json(const uint8_t *p, size_t n, inspect_report *r)
{
    size_t i = 0;
    while (i < n && p[i] != '{' && p[i] != '[')
        i++;
    add(r, "top", "%s", p[i] == '{' ? "object" : "array");
}

/* ---------------------------------------------------------------------------
 * Documents and text, decided by decoding them with the library: a format is
 * named only when its decoder accepts the whole input.
 * ------------------------------------------------------------------------ */

/* Decodes p[0..n) with `spec` (bytes when `value` is NULL, else a
 * codec_value); true when the decoder accepts all of it. */
static bool decodes_as(const char *spec, const uint8_t *p, size_t n, codec_arena *arena,
                       codec_bytes *bytes, codec_value *value)
{
    codec_error err;
    codec *c = codec_parse(spec, value ? codec_value_type() : NULL, &err);
    if (!c)
        return false;
    int rc = codec_decode(c, p, n, value ? (void *)value : (void *)bytes, arena, &err);
    codec_free(c);
    return rc == CODEC_OK;
}

static const char *value_kind_name(codec_value_kind k)
{
    static const char *const names[] = {"null", "bool", "int", "uint", "float",
                                        "string", "bytes", "array", "map"};
    return (size_t)k < sizeof names / sizeof names[0] ? names[k] : "?";
}

/* CBOR (RFC 8949) or MessagePack: one value that `codec validate -f cbor`
 * (or msgpack) accepts, and nothing after it. When both accept the bytes
 * (a lone small integer, say), CBOR is named and `also` says so. */
static bool inspect_document(const uint8_t *p, size_t n, inspect_report *r)
{
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_value v = {0}, w = {0};
    bool cbor = decodes_as("cbor", p, n, &arena, NULL, &v);
    bool msgpack = decodes_as("msgpack", p, n, &arena, NULL, cbor ? &w : &v);
    if (cbor || msgpack) {
        r->format = format_names[cbor ? F_CBOR : F_MSGPACK];
        add(r, "top", "%s", value_kind_name(v.kind));
        if (v.kind == CODEC_V_ARRAY)
            add(r, "items", "%zu", v.as.array.count);
        else if (v.kind == CODEC_V_OBJECT)
            add(r, "items", "%zu", v.as.object.count);
        if (cbor && n >= 3 && p[0] == 0xD9 && p[1] == 0xD9 && p[2] == 0xF7)
            add(r, "self-described", "yes");
        if (cbor && msgpack)
            add(r, "also decodes as", "msgpack");
    }
    codec_arena_free(&arena);
    return cbor || msgpack;
}

static void add_lines(inspect_report *r, const text_scan *t)
{
    if (t->lines > 1)
        add(r, "lines", "%zu", t->lines);
}

static int inspect_nested(const uint8_t *p, size_t n, uint64_t budget, unsigned depth,
                          inspect_report *r);

/* The report of the decoded bytes of a text encoding, as `inner ...` fields;
 * a problem inside is the file's problem. */
static int add_inner(inspect_report *r, const codec_bytes *inner, uint64_t budget,
                     unsigned depth)
{
    inspect_report *in = malloc(sizeof *in);
    if (!in)
        return fail(r, CODEC_E_NOMEM, 0, CODEC_NO_OFFSET, "out of memory");
    int rc = inspect_nested(inner->data, inner->len, budget, depth + 1, in);
    add(r, "inner format", "%s", in->format);
    for (size_t i = 0; i < in->count; i++) {
        char key[sizeof in->fields[i].key + 8];
        snprintf(key, sizeof key, "inner %s", in->fields[i].key);
        add(r, key, "%s", in->fields[i].value);
    }
    if (rc) {
        r->status = rc;
        r->err = in->err;
    }
    free(in);
    return rc;
}

/* hex and base64 text: named only when the library's decoder (line breaks
 * skipped, as `unpack -p base64:lines=skip` reads) takes it; then the
 * decoded bytes are inspected too. */
static bool inspect_text(format_id id, const uint8_t *p, size_t n, uint64_t budget,
                         unsigned depth, inspect_report *r, int *status)
{
    text_scan t;
    scan_text(p, n, &t);
    /* Unpadded text is read as url-nopad, the variant without padding,
     * unless it uses the standard alphabet's + or /. */
    const char *spec = id == F_HEX                ? "hex:lines=skip"
                       : t.pad ? (t.url ? "base64:url,lines=skip" : "base64:lines=skip")
                       : t.standard ? "base64:lines=skip"
                                    : "base64:url-nopad,lines=skip";
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_bytes inner = {0};
    bool ok = decodes_as(spec, p, n, &arena, &inner, NULL);
    if (ok) {
        r->format = format_names[id];
        if (id == F_HEX) {
            add(r, "case", "%s", t.upper && t.lower ? "mixed" : t.upper ? "upper" : "lower");
        } else {
            add(r, "alphabet", "%s", t.url ? "url" : "standard");
            add(r, "padding", "%s", t.pad ? "yes" : "no");
        }
        add_lines(r, &t);
        add(r, "decoded size", "%zu", inner.len);
        *status = depth < INSPECT_MAX_NESTING ? add_inner(r, &inner, budget, depth) : CODEC_OK;
    }
    codec_arena_free(&arena);
    return ok;
}

static void inspect_unknown(const uint8_t *p, size_t n, inspect_report *r)
{
    char head[3 * 8];
    size_t used = 0;
    for (size_t i = 0; i < n && i < 8; i++)
        used += (size_t)snprintf(head + used, sizeof head - used, "%s%02x", i ? " " : "", p[i]);
    add(r, "head", "%s", head);
}

/* ---------------------------------------------------------------------------
 * Entry points
 * ------------------------------------------------------------------------ */

static int inspect_nested(const uint8_t *p, size_t n, uint64_t walk_budget, unsigned depth,
                          inspect_report *r)
{
    memset(r, 0, sizeof *r);
    format_id id = detect(p, n);
    r->format = format_names[id];
    r->size = n;
    int status = CODEC_OK;
    switch (id) {
    case F_GZIP: return inspect_gzip(p, n, walk_budget, r);
    case F_ZLIB: return inspect_zlib(p, n, walk_budget, r);
    case F_ZSTD: return inspect_zstd(p, n, r);
    case F_LZ4: return inspect_lz4(p, n, r);
    case F_VERSIONED: return inspect_versioned(p, n, r);
    case F_ENVELOPE: return inspect_stage(p, n, r, NULL);
    case F_JSON: inspect_json(p, n, r); break;
    case F_HEX:
    case F_BASE64:
        if (inspect_text(id, p, n, walk_budget, depth, r, &status))
            return status;
        break; /* text the decoder refuses is not that encoding */
    case F_EMPTY: return CODEC_OK;
    default: break;
    }
    if (id == F_JSON)
        return CODEC_OK;
    r->format = format_names[F_UNKNOWN];
    if (!inspect_document(p, n, r))
        inspect_unknown(p, n, r);
    return CODEC_OK;
}

int inspect_bytes(const uint8_t *p, size_t n, uint64_t walk_budget, inspect_report *r)
{
    return inspect_nested(p, n, walk_budget, 0, r);
}

const char *inspect_field_value(const inspect_report *r, const char *key)
{
    for (size_t i = 0; i < r->count; i++)
        if (strcmp(r->fields[i].key, key) == 0)
            return r->fields[i].value;
    return NULL;
}
