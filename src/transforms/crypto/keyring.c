/* keyring.c — the built-in key provider: AES-256 KEKs by key id read from a
 * ring file, the first one current. Data keys are wrapped with AES key wrap
 * (RFC 3394) under the current KEK, as `[0x01][40 bytes]`.
 *
 * The ring is the allowlist: a key id not in it is never unwrapped. Each
 * KEK is expanded once per pooled context (one for wrapping with the
 * current key, one per key for unwrapping, made when first needed). */
#include "crypto_internal.h"
#include "core/ascii_internal.h"
#include "core/error_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define RING_STAGE "keyring"
#define RING_MAX_FILE ((size_t)1 << 20)
#define RING_HEX_DIGITS (2 * CRYPTO_KEY_SIZE)
#define WRAP_SCHEME_AES_KW 0x01
#define RING_WRAPPED_SIZE (1 + CRYPTO_WRAPPED_KEY_SIZE)

typedef struct ring_key {
    size_t id_len;
    uint8_t id[CODEC_ENVELOPE_MAX_KEY_ID];
    uint8_t kek[CRYPTO_KEY_SIZE];
} ring_key;

struct codec_keyring {
    size_t count;
    size_t capacity;        /* of keys[]: every entry may have held a KEK */
    const codec_allocator *alloc;
    codec_pool slots;       /* of ring_slot */
    ring_key keys[];        /* keys[0] is current */
};

static size_t ring_bytes(size_t capacity)
{
    return sizeof(codec_keyring) + capacity * sizeof(ring_key);
}

/* Per-thread-at-a-time cipher contexts holding expanded KEKs. */
typedef struct ring_slot {
    size_t count;               /* of unwrap[] */
    EVP_CIPHER_CTX *wrap;       /* keys[0], for wrapping */
    EVP_CIPHER_CTX *unwrap[];   /* keys[i], for unwrapping; NULL until used */
} ring_slot;

static void *ring_slot_make(const void *ring);
static void ring_slot_destroy(void *item);

/* ---------------------------------------------------------------------------
 * Parsing
 * ------------------------------------------------------------------------ */

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

/* Key ids are visible ASCII: they must survive a whitespace-separated file
 * and are always valid UTF-8. */
static bool valid_key_id(const char *p, size_t n)
{
    if (n == 0 || n > CODEC_ENVELOPE_MAX_KEY_ID)
        return false;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)p[i] < 0x21 || (unsigned char)p[i] > 0x7e)
            return false;
    return true;
}

static bool parse_kek(const char *p, size_t n, uint8_t kek[CRYPTO_KEY_SIZE])
{
    if (n != RING_HEX_DIGITS)
        return false;
    for (size_t i = 0; i < CRYPTO_KEY_SIZE; i++) {
        int hi = codec_hex_digit_value(p[2 * i]), lo = codec_hex_digit_value(p[2 * i + 1]);
        if (hi < 0 || lo < 0) {
            OPENSSL_cleanse(kek, CRYPTO_KEY_SIZE);
            return false;
        }
        kek[i] = (uint8_t)(hi << 4 | lo);
    }
    return true;
}

/* One line [p, end) without its newline: is it a key line? */
static bool is_key_line(const char *p, const char *end)
{
    while (p < end && is_blank(*p))
        p++;
    return p < end && *p != '#';
}

static const ring_key *find_key(const codec_keyring *ring, const uint8_t *id, size_t n)
{
    for (size_t i = 0; i < ring->count; i++)
        if (ring->keys[i].id_len == n && memcmp(ring->keys[i].id, id, n) == 0)
            return &ring->keys[i];
    return NULL;
}

/* Parses one key line into ring->keys[ring->count]. */
static int parse_key_line(codec_keyring *ring, const char *p, const char *end, size_t line,
                          codec_error *err)
{
    while (p < end && is_blank(*p))
        p++;
    while (end > p && is_blank(end[-1]))
        end--;
    const char *id = p;
    while (p < end && !is_blank(*p))
        p++;
    size_t id_len = (size_t)(p - id);
    while (p < end && is_blank(*p))
        p++;
    ring_key *k = &ring->keys[ring->count];
    if (!valid_key_id(id, id_len))
        return codec_error_set(err, CODEC_E_USAGE, CODEC_D_CORRUPT, RING_STAGE, CODEC_NO_OFFSET,
                               "line %zu: key id must be 1 to %d visible ASCII characters",
                               line, CODEC_ENVELOPE_MAX_KEY_ID);
    if (!parse_kek(p, (size_t)(end - p), k->kek))
        return codec_error_set(err, CODEC_E_USAGE, CODEC_D_CORRUPT, RING_STAGE, CODEC_NO_OFFSET,
                               "line %zu: expected '<key-id> <64 hex digits>'", line);
    if (find_key(ring, (const uint8_t *)id, id_len))
        return codec_error_set(err, CODEC_E_USAGE, CODEC_D_CORRUPT, RING_STAGE, CODEC_NO_OFFSET,
                               "line %zu: key id '%.*s' appears twice", line, (int)id_len, id);
    memcpy(k->id, id, id_len);
    k->id_len = id_len;
    ring->count++;
    return CODEC_OK;
}

static size_t count_key_lines(const char *text, size_t len)
{
    size_t n = 0;
    for (const char *p = text, *end = text + len; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        n += is_key_line(p, le);
        p = nl ? nl + 1 : end;
    }
    return n;
}

codec_keyring *codec__keyring_parse_with(const char *text, size_t len,
                                         const codec_allocator *alloc, codec_error *err)
{
    if (!text) {
        codec_error_set(err, CODEC_E_USAGE, 0, RING_STAGE, CODEC_NO_OFFSET, "no key ring text");
        return NULL;
    }
    if (codec__dynlib_open(&codec__libcrypto, RING_STAGE, err))
        return NULL;   /* a ring exists only with libcrypto open: its users need not check */
    size_t candidates = count_key_lines(text, len);
    if (candidates == 0 || candidates > CODEC_KEYRING_MAX_KEYS) {
        codec_error_set(err, CODEC_E_USAGE, CODEC_D_LIMIT, RING_STAGE, CODEC_NO_OFFSET,
                        "a key ring needs 1 to %d keys, this one has %zu",
                        CODEC_KEYRING_MAX_KEYS, candidates);
        return NULL;
    }
    codec_keyring *ring = alloc->alloc(alloc->ctx, ring_bytes(candidates));
    if (!ring) {
        codec__nomem(err, RING_STAGE);
        return NULL;
    }
    memset(ring, 0, ring_bytes(candidates));
    ring->capacity = candidates;
    ring->alloc = alloc;
    codec__crypto_pool_init(&ring->slots, ring_slot_make, ring_slot_destroy, ring);
    size_t line = 0;
    for (const char *p = text, *end = text + len; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        line++;
        if (is_key_line(p, le) && parse_key_line(ring, p, le, line, err)) {
            codec_keyring_free(ring);
            return NULL;
        }
        p = nl ? nl + 1 : end;
    }
    return ring;
}

codec_keyring *codec_keyring_parse(const char *text, size_t len, codec_error *err)
{
    return codec__keyring_parse_with(text, len, codec_default_allocator(), err);
}

/* ---------------------------------------------------------------------------
 * Loading a file
 * ------------------------------------------------------------------------ */

static int io_error(codec_error *err, const char *path, const char *what)
{
    return codec_error_set(err, CODEC_E_TRANSIENT, CODEC_D_IO, RING_STAGE, CODEC_NO_OFFSET,
                           "cannot %s key ring '%s': %s", what, path, strerror(errno));
}

/* Whoever owns a file or directory can change it: only the caller and root
 * may own the ring and the directories above it. */
static bool trusted_owner(uid_t uid)
{
    return uid == geteuid() || uid == 0;
}

/* Refuses a directory on the way to the ring that someone else could use to
 * replace it (OpenSSH's StrictModes rule): one owned by another user, or
 * writable by group or others without the sticky bit (which keeps them from
 * renaming entries they do not own). `dir` is an absolute path without
 * symbolic links; it and every directory above it are checked. */
static int check_dirs(char *dir, const char *path, codec_error *err)
{
    for (;;) {
        struct stat st;
        if (stat(dir, &st) != 0)
            return io_error(err, dir, "stat the directory of");
        if (!trusted_owner(st.st_uid))
            return codec_error_set(err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, RING_STAGE,
                                   CODEC_NO_OFFSET,
                                   "directory '%s' of key ring '%s' is owned by uid %u, who "
                                   "could replace the ring: move the ring to a directory "
                                   "owned by you or root",
                                   dir, path, (unsigned)st.st_uid);
        if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX))
            return codec_error_set(err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, RING_STAGE,
                                   CODEC_NO_OFFSET,
                                   "directory '%s' of key ring '%s' is writable by group or "
                                   "others (mode %04o), who could replace the ring: run: "
                                   "chmod go-w '%s'",
                                   dir, path, (unsigned)(st.st_mode & 07777), dir);
        char *slash = strrchr(dir, '/');
        if (!slash || slash == dir) {
            if (!slash || dir[1] == '\0')
                return CODEC_OK;
            dir[1] = '\0'; /* then the root itself */
        } else {
            *slash = '\0';
        }
    }
}

/* The directory of `file` resolved to an absolute path without links
 * (malloc'ed), or NULL with errno set. */
static char *real_dir_of(const char *file)
{
    char *copy = strdup(file);
    if (!copy)
        return NULL;
    char *slash = strrchr(copy, '/');
    const char *dir = copy;
    if (!slash)
        dir = ".";
    else if (slash == copy)
        dir = "/";
    else
        *slash = '\0';
    char *real = realpath(dir, NULL);
    free(copy);
    return real;
}

/* Checks the directories above the name given and, when it is a symbolic
 * link, above the file it leads to. */
static int check_path(const char *path, codec_error *err)
{
    char *given = real_dir_of(path);
    char *target = realpath(path, NULL);
    char *target_dir = target ? real_dir_of(target) : NULL;
    int rc;
    if (!given || !target_dir)
        rc = io_error(err, path, "resolve the directory of");
    else if ((rc = check_dirs(given, path, err)) == CODEC_OK)
        rc = check_dirs(target_dir, path, err);
    free(given);
    free(target);
    free(target_dir);
    return rc;
}

/* Refuses anything but a regular file private to its owner, who must be the
 * caller or root. */
static int check_file(int fd, const char *path, size_t *size, codec_error *err)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return io_error(err, path, "stat");
    if (!S_ISREG(st.st_mode))
        return codec_error_set(err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, RING_STAGE,
                               CODEC_NO_OFFSET, "key ring '%s' is not a regular file", path);
    if (st.st_mode & (S_IRWXG | S_IRWXO))
        return codec_error_set(err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, RING_STAGE,
                               CODEC_NO_OFFSET,
                               "key ring '%s' is accessible by group or others (mode %04o); "
                               "run: chmod 600 '%s'",
                               path, (unsigned)(st.st_mode & 07777), path);
    if (!trusted_owner(st.st_uid))
        return codec_error_set(err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, RING_STAGE,
                               CODEC_NO_OFFSET,
                               "key ring '%s' is owned by uid %u, not by you (uid %u) or root; "
                               "its owner could replace the keys: run: chown %u '%s'",
                               path, (unsigned)st.st_uid, (unsigned)geteuid(),
                               (unsigned)geteuid(), path);
    if ((uint64_t)st.st_size > RING_MAX_FILE)
        return codec_error_set(err, CODEC_E_USAGE, CODEC_D_LIMIT, RING_STAGE, CODEC_NO_OFFSET,
                               "key ring '%s' is larger than %zu bytes", path, RING_MAX_FILE);
    *size = (size_t)st.st_size;
    return CODEC_OK;
}

static int read_all(int fd, const char *path, char *buf, size_t size, size_t *got,
                    codec_error *err)
{
    size_t n = 0;
    while (n < size) {
        ssize_t r = read(fd, buf + n, size - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return io_error(err, path, "read");
        if (r == 0)
            break;
        n += (size_t)r;
    }
    *got = n;
    return CODEC_OK;
}

codec_keyring *codec__keyring_load_with(const char *path, const codec_allocator *alloc,
                                        codec_error *err)
{
    if (!path) {
        codec_error_set(err, CODEC_E_USAGE, 0, RING_STAGE, CODEC_NO_OFFSET, "no key ring path");
        return NULL;
    }
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        io_error(err, path, "open");
        return NULL;
    }
    size_t size = 0, got = 0;
    char *buf = NULL;
    codec_keyring *ring = NULL;
    if (check_file(fd, path, &size, err) == CODEC_OK && check_path(path, err) == CODEC_OK) {
        buf = alloc->alloc(alloc->ctx, size ? size : 1);
        if (!buf)
            codec__nomem(err, RING_STAGE);
        else if (read_all(fd, path, buf, size, &got, err) == CODEC_OK)
            ring = codec__keyring_parse_with(buf, got, alloc, err);
    }
    close(fd);
    if (buf) {
        OPENSSL_cleanse(buf, size);
        alloc->release(alloc->ctx, buf, size ? size : 1);
    }
    return ring;
}

codec_keyring *codec_keyring_load(const char *path, codec_error *err)
{
    return codec__keyring_load_with(path, codec_default_allocator(), err);
}

/* ---------------------------------------------------------------------------
 * The provider
 * ------------------------------------------------------------------------ */

static void ring_slot_destroy(void *item)
{
    ring_slot *slot = item;
    EVP_CIPHER_CTX_free(slot->wrap);
    for (size_t i = 0; i < slot->count; i++)
        EVP_CIPHER_CTX_free(slot->unwrap[i]);
    free(slot);
}

void codec_keyring_free(codec_keyring *ring)
{
    if (!ring)
        return;
    codec__pool_clear(&ring->slots);
    /* Every entry, not only the `count` accepted: a rejected line may have
     * left its KEK in the next one. */
    OPENSSL_cleanse(ring->keys, ring->capacity * sizeof ring->keys[0]);
    ring->alloc->release(ring->alloc->ctx, ring, ring_bytes(ring->capacity));
}

/* A new slot for the ring's keys as parsed (the pool's make). */
static void *ring_slot_make(const void *ring)
{
    const codec_keyring *r = ring;
    ring_slot *slot = calloc(1, sizeof *slot + r->count * sizeof slot->unwrap[0]);
    if (slot)
        slot->count = r->count;
    return slot;
}

static int ring_nomem(codec_error *err)
{
    return codec__nomem(err, RING_STAGE);
}

static int ring_generate(void *ctx, const codec_byte_source *random, codec_data_key *out,
                         codec_error *err)
{
    codec_keyring *ring = ctx;
    const ring_key *current = &ring->keys[0];
    if (random->fill(random->ctx, out->key, CRYPTO_KEY_SIZE) != 0)
        return codec_error_set(err, CODEC_E_TRANSIENT, 0, RING_STAGE, CODEC_NO_OFFSET,
                               "no random bytes for a data key");
    ring_slot *slot = codec__pool_get(&ring->slots);
    if (!slot)
        return ring_nomem(err);
    if (!slot->wrap)
        slot->wrap = codec__crypto_kw_new(current->kek, true);
    bool ok = slot->wrap && codec__crypto_kw_wrap(slot->wrap, out->key, out->wrapped + 1);
    codec__pool_put(&ring->slots, slot);
    if (!ok)
        return ring_nomem(err);
    out->wrapped[0] = WRAP_SCHEME_AES_KW;
    out->wrapped_len = RING_WRAPPED_SIZE;
    memcpy(out->key_id, current->id, current->id_len);
    out->key_id_len = current->id_len;
    return CODEC_OK;
}

static int ring_allows(void *ctx, const uint8_t *key_id, size_t key_id_len)
{
    return find_key(ctx, key_id, key_id_len) != NULL;
}

/* Every way the wrapped bytes can be wrong gives the same answer. */
static int ring_unwrap(void *ctx, const uint8_t *key_id, size_t key_id_len,
                       const uint8_t *wrapped, size_t wrapped_len,
                       uint8_t key[CODEC_ENVELOPE_KEY_SIZE], codec_error *err)
{
    codec_keyring *ring = ctx;
    const ring_key *k = find_key(ring, key_id, key_id_len);
    if (!k || wrapped_len != RING_WRAPPED_SIZE || wrapped[0] != WRAP_SCHEME_AES_KW)
        return codec_error_set(err, CODEC_E_INVALID_PAYLOAD, CODEC_D_DECRYPT, RING_STAGE,
                               CODEC_NO_OFFSET, "unable to decrypt");
    ring_slot *slot = codec__pool_get(&ring->slots);
    if (!slot)
        return ring_nomem(err);
    size_t i = (size_t)(k - ring->keys);
    if (!slot->unwrap[i])
        slot->unwrap[i] = codec__crypto_kw_new(k->kek, false);
    int rc = CODEC_OK;
    if (!slot->unwrap[i])
        rc = ring_nomem(err);
    else if (!codec__crypto_kw_unwrap(slot->unwrap[i], wrapped + 1, key))
        rc = codec_error_set(err, CODEC_E_INVALID_PAYLOAD, CODEC_D_DECRYPT, RING_STAGE,
                             CODEC_NO_OFFSET, "unable to decrypt");
    codec__pool_put(&ring->slots, slot);
    return rc;
}

static void ring_release(void *ctx)
{
    codec_keyring_free(ctx);
}

codec_key_provider codec_keyring_provider(codec_keyring *ring)
{
    codec_key_provider none = {0};
    codec_key_provider p = {ring_generate, ring_allows, ring_unwrap, ring_release, ring};
    return ring ? p : none;
}

/* ---------------------------------------------------------------------------
 * New ring lines
 * ------------------------------------------------------------------------ */

static void to_hex(const uint8_t *p, size_t n, char *dst)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        dst[2 * i] = digits[p[i] >> 4];
        dst[2 * i + 1] = digits[p[i] & 15];
    }
    dst[2 * n] = '\0';
}

/* kek-YYYYMMDD-XXXXXXXX: sorts by date, and two keys made the same day differ. */
static int default_key_id(char *dst, size_t cap, codec_error *err)
{
    uint8_t tag[4];
    char tag_hex[9];
    struct tm tm;
    time_t now = time(NULL);
    if (codec__random_bytes(tag, sizeof tag) != 0)
        return codec_error_set(err, CODEC_E_TRANSIENT, 0, RING_STAGE, CODEC_NO_OFFSET,
                               "no random bytes available");
    to_hex(tag, sizeof tag, tag_hex);
    gmtime_r(&now, &tm);
    snprintf(dst, cap, "kek-%04d%02d%02d-%s", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
             tag_hex);
    return CODEC_OK;
}

int codec_keyring_generate_line(const char *id, char *dst, size_t cap, codec_error *err)
{
    char made_id[64];
    int opened = codec__dynlib_open(&codec__libcrypto, RING_STAGE, err);
    if (opened)
        return opened;
    if (!id) {
        int rc = default_key_id(made_id, sizeof made_id, err);
        if (rc)
            return rc;
        id = made_id;
    }
    size_t id_len = strlen(id);
    if (!valid_key_id(id, id_len))
        return codec_error_set(err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, RING_STAGE,
                               CODEC_NO_OFFSET,
                               "a key id must be 1 to %d visible ASCII characters",
                               CODEC_ENVELOPE_MAX_KEY_ID);
    if (!dst || cap < id_len + 1 + RING_HEX_DIGITS + 2)
        return codec_error_set(err, CODEC_E_USAGE, 0, RING_STAGE, CODEC_NO_OFFSET,
                               "line buffer too small (%zu bytes needed)",
                               id_len + 1 + RING_HEX_DIGITS + 2);
    uint8_t kek[CRYPTO_KEY_SIZE];
    if (codec__random_bytes(kek, sizeof kek) != 0)
        return codec_error_set(err, CODEC_E_TRANSIENT, 0, RING_STAGE, CODEC_NO_OFFSET,
                               "no random bytes available");
    memcpy(dst, id, id_len);
    dst[id_len] = ' ';
    to_hex(kek, sizeof kek, dst + id_len + 1);
    memcpy(dst + id_len + 1 + RING_HEX_DIGITS, "\n", 2);
    OPENSSL_cleanse(kek, sizeof kek);
    return CODEC_OK;
}
