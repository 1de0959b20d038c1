/* The project's raw-engine reference: phases A-E of the account workload run directly on
 * libsqlite3 and liblmdb with the settings the AccountStore backends use, and the JSON store's
 * whole-file rewrite, so that `make bench` can report Swift/raw ratios measured in one run.
 *
 * usage: raw_bench sqlite full|normal N DIR
 *        raw_bench lmdb full|nometasync|none N DIR
 *        raw_bench json default N DIR
 *
 * Prints the same RESULT lines as accounts-bench:
 *   RESULT phase engine mode N ops seconds mean_us p50_us p99_us peak_rss_kib
 *
 * Settings mirrored from the backends:
 *   sqlite: the v1 schema (users with a UNIQUE email index, sessions ON DELETE CASCADE),
 *           WAL, synchronous FULL/NORMAL, foreign_keys=ON, busy_timeout 5000, prepared
 *           statements; every write is BEGIN IMMEDIATE ... COMMIT; the UNIQUE index decides a
 *           duplicate (the INSERT fails, the transaction rolls back).
 *   lmdb:   MDB_NOSUBDIR|MDB_NOTLS, named databases users/emails/sessions/user_sessions, 64 MiB
 *           map; a create puts the email with MDB_NOOVERWRITE then the user; a delete removes
 *           the email, the user and scans the user's sessions.
 *   json:   the whole file serialized (pretty, sorted by email) and rewritten per sign-up:
 *           temp file, fsync, rename, fsync of the folder.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <lmdb.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#define DIE(...) do { fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); exit(1); } while (0)
#define HASH "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g"

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static uint64_t rng_state;
static uint64_t rng(void) { /* splitmix64 */
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void email(char *out, int n) { sprintf(out, "user%07d@example.com", n); }
static void nick(char *out, int n) { sprintf(out, "n\xc3\xaf" "ck%05d", n % 100000); }
static void uid(char *out, int n) { sprintf(out, "%032x", n); }

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void report(const char *phase, const char *engine, const char *mode, int n, double *lat, int ops,
                   double total_us) {
    qsort(lat, ops, sizeof(double), cmp_double);
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    printf("RESULT\t%s\t%s\t%s\t%d\t%d\t%.4f\t%.2f\t%.1f\t%.1f\t%ld\n", phase, engine, mode, n, ops, total_us / 1e6,
           total_us / ops, lat[ops / 2], lat[(int)(ops * 0.99)], usage.ru_maxrss);
    fflush(stdout);
}

/* ---------------------------------------------------------------- sqlite */

static sqlite3 *db;
static void exec(const char *sql) {
    char *err = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) DIE("%s: %s", sql, err);
}
static sqlite3_stmt *prep(const char *sql) {
    sqlite3_stmt *s;
    if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &s, NULL)) DIE("%s: %s", sql, sqlite3_errmsg(db));
    return s;
}
static void step_done(sqlite3_stmt *s) {
    if (sqlite3_step(s) != SQLITE_DONE) DIE("step: %s", sqlite3_errmsg(db));
    sqlite3_reset(s);
}

static const char *schema =
    "CREATE TABLE users (id TEXT PRIMARY KEY NOT NULL, email TEXT NOT NULL, nickname TEXT NOT NULL,"
    " password_hash TEXT NOT NULL, created_at_ms INTEGER NOT NULL, password_changed_at_ms INTEGER NOT NULL,"
    " failed_login_count INTEGER NOT NULL DEFAULT 0, last_failed_login_at_ms INTEGER) STRICT;"
    "CREATE UNIQUE INDEX users_email ON users(email);"
    "CREATE TABLE sessions (token_sha256 TEXT PRIMARY KEY NOT NULL,"
    " user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE, created_at_ms INTEGER NOT NULL,"
    " last_seen_at_ms INTEGER NOT NULL, expires_at_ms INTEGER NOT NULL, idle_timeout_s INTEGER NOT NULL,"
    " remember INTEGER NOT NULL) STRICT;"
    "CREATE INDEX sessions_user ON sessions(user_id);";

static void sqlite_open(const char *path, const char *mode) {
    unlink(path);
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL))
        DIE("open %s", path);
    sqlite3_busy_timeout(db, 5000);
    exec("PRAGMA journal_mode=WAL");
    exec(strcmp(mode, "full") == 0 ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL");
    exec("PRAGMA foreign_keys=ON");
    exec(schema);
}

static void bind_user(sqlite3_stmt *s, int n) {
    char e[32], k[16], i[40];
    email(e, n);
    nick(k, n);
    uid(i, n);
    sqlite3_bind_text(s, 1, i, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s, 2, e, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s, 3, k, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s, 4, HASH, -1, SQLITE_STATIC);
    sqlite3_bind_int64(s, 5, 1700000000000LL + n);
    sqlite3_bind_int64(s, 6, 1700000000000LL + n);
    sqlite3_bind_int64(s, 7, 0);
    sqlite3_bind_null(s, 8);
}

static void run_sqlite(const char *mode, int n, const char *dir) {
    char path[4096];
    snprintf(path, sizeof path, "%s/raw.sqlite", dir);
    sqlite_open(path, mode);
    sqlite3_stmt *begin = prep("BEGIN IMMEDIATE"), *commit = prep("COMMIT"), *rollback = prep("ROLLBACK");
    sqlite3_stmt *insert = prep("INSERT INTO users (id, email, nickname, password_hash, created_at_ms,"
                                " password_changed_at_ms, failed_login_count, last_failed_login_at_ms)"
                                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
    sqlite3_stmt *lookup = prep("SELECT id, email, nickname, password_hash, created_at_ms, password_changed_at_ms,"
                                " failed_login_count, last_failed_login_at_ms FROM users WHERE email = ?");
    sqlite3_stmt *del = prep("DELETE FROM users WHERE id = ?");
    double *lat = malloc(sizeof(double) * n);
    double t0 = now_us();
    for (int i = 0; i < n; i++) { /* A */
        double a = now_us();
        step_done(begin);
        bind_user(insert, i);
        step_done(insert);
        step_done(commit);
        lat[i] = now_us() - a;
    }
    report("A_signup", "sqlite", mode, n, lat, n, now_us() - t0);
    t0 = now_us();
    for (int i = 0; i < n; i++) { /* B */
        char e[32];
        email(e, (int)(rng() % n));
        double a = now_us();
        sqlite3_bind_text(lookup, 1, e, -1, SQLITE_TRANSIENT);
        if (sqlite3_step(lookup) != SQLITE_ROW) DIE("lookup missed");
        char copy[256];
        for (int c = 0; c < 8; c++) {
            const unsigned char *t = sqlite3_column_text(lookup, c);
            if (t) memcpy(copy, t, (size_t)sqlite3_column_bytes(lookup, c) % sizeof copy);
        }
        sqlite3_reset(lookup);
        lat[i] = now_us() - a;
    }
    report("B_lookup", "sqlite", mode, n, lat, n, now_us() - t0);
    t0 = now_us();
    for (int i = 0; i < n / 10; i++) { /* C */
        double a = now_us();
        step_done(begin);
        bind_user(insert, n + i);
        char e[32];
        email(e, (int)(rng() % n));
        sqlite3_bind_text(insert, 2, e, -1, SQLITE_TRANSIENT);
        if (sqlite3_step(insert) != SQLITE_CONSTRAINT) DIE("duplicate accepted");
        sqlite3_reset(insert);
        step_done(rollback);
        lat[i] = now_us() - a;
    }
    report("C_duplicate", "sqlite", mode, n, lat, n / 10, now_us() - t0);
    int *order = malloc(sizeof(int) * n);
    for (int i = 0; i < n; i++) order[i] = i;
    for (int i = n - 1; i > 0; i--) { int j = (int)(rng() % (i + 1)), t = order[i]; order[i] = order[j]; order[j] = t; }
    t0 = now_us();
    for (int i = 0; i < n / 2; i++) { /* D */
        char id[40];
        uid(id, order[i]);
        double a = now_us();
        step_done(begin);
        sqlite3_bind_text(del, 1, id, -1, SQLITE_TRANSIENT);
        step_done(del);
        if (sqlite3_changes(db) != 1) DIE("withdraw missed");
        step_done(commit);
        lat[i] = now_us() - a;
    }
    report("D_withdraw", "sqlite", mode, n, lat, n / 2, now_us() - t0);
    sqlite3_finalize(begin); sqlite3_finalize(commit); sqlite3_finalize(rollback);
    sqlite3_finalize(insert); sqlite3_finalize(lookup); sqlite3_finalize(del);
    sqlite3_close(db);
    /* E: a fresh database, 1000 users per transaction, as the import path writes them */
    snprintf(path, sizeof path, "%s/raw-e.sqlite", dir);
    sqlite_open(path, mode);
    begin = prep("BEGIN IMMEDIATE"); commit = prep("COMMIT");
    insert = prep("INSERT INTO users (id, email, nickname, password_hash, created_at_ms, password_changed_at_ms,"
                  " failed_login_count, last_failed_login_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
    t0 = now_us();
    for (int i = 0; i < n; i++) {
        if (i % 1000 == 0) step_done(begin);
        bind_user(insert, i);
        step_done(insert);
        if (i % 1000 == 999 || i == n - 1) step_done(commit);
    }
    double total = now_us() - t0;
    for (int i = 0; i < n; i++) lat[i] = total / n;
    report("E_bulk_import", "sqlite", mode, n, lat, n, total);
    sqlite3_finalize(begin); sqlite3_finalize(commit); sqlite3_finalize(insert);
    sqlite3_close(db);
}

/* ---------------------------------------------------------------- lmdb */

#define CK(x) do { int rc_ = (x); if (rc_) DIE("%s: %s", #x, mdb_strerror(rc_)); } while (0)
static MDB_env *env;
static MDB_dbi users_db, emails_db, sessions_db, user_sessions_db;

static void lmdb_open(const char *path, const char *mode) {
    char lock[4200];
    unlink(path);
    snprintf(lock, sizeof lock, "%s-lock", path);
    unlink(lock);
    CK(mdb_env_create(&env));
    CK(mdb_env_set_maxdbs(env, 8));
    CK(mdb_env_set_mapsize(env, (size_t)64 << 20));
    unsigned flags = MDB_NOSUBDIR | MDB_NOTLS;
    if (strcmp(mode, "nometasync") == 0) flags |= MDB_NOMETASYNC;
    if (strcmp(mode, "none") == 0) flags |= MDB_NOSYNC;
    CK(mdb_env_open(env, path, flags, 0600));
    MDB_txn *txn;
    CK(mdb_txn_begin(env, NULL, 0, &txn));
    CK(mdb_dbi_open(txn, "users", MDB_CREATE, &users_db));
    CK(mdb_dbi_open(txn, "emails", MDB_CREATE, &emails_db));
    CK(mdb_dbi_open(txn, "sessions", MDB_CREATE, &sessions_db));
    CK(mdb_dbi_open(txn, "user_sessions", MDB_CREATE, &user_sessions_db));
    CK(mdb_txn_commit(txn));
}

static size_t encode_user(unsigned char *out, int n) {
    char e[32], k[16];
    email(e, n);
    nick(k, n);
    size_t p = 0;
    out[p++] = 1;
    const char *fields[3] = {e, k, HASH};
    for (int f = 0; f < 3; f++) {
        uint32_t len = (uint32_t)strlen(fields[f]);
        memcpy(out + p, &len, 4); p += 4;
        memcpy(out + p, fields[f], len); p += len;
    }
    int64_t created = 1700000000000LL + n, zero = 0;
    memcpy(out + p, &created, 8); p += 8;
    memcpy(out + p, &created, 8); p += 8;
    memcpy(out + p, &zero, 8); p += 8;
    out[p++] = 0;
    return p;
}

static int lmdb_create(MDB_txn *txn, int n, int email_n) {
    char e[32], id[40];
    unsigned char value[256];
    email(e, email_n);
    uid(id, n);
    MDB_val key = {strlen(e), e}, idv = {32, id};
    int rc = mdb_put(txn, emails_db, &key, &idv, MDB_NOOVERWRITE);
    if (rc == MDB_KEYEXIST) return 0;
    CK(rc);
    MDB_val uk = {32, id}, uv = {encode_user(value, n), value};
    CK(mdb_put(txn, users_db, &uk, &uv, MDB_NOOVERWRITE));
    return 1;
}

static void run_lmdb(const char *mode, int n, const char *dir) {
    char path[4096];
    snprintf(path, sizeof path, "%s/raw.lmdb", dir);
    lmdb_open(path, mode);
    double *lat = malloc(sizeof(double) * n);
    MDB_txn *txn;
    double t0 = now_us();
    for (int i = 0; i < n; i++) { /* A */
        double a = now_us();
        CK(mdb_txn_begin(env, NULL, 0, &txn));
        if (!lmdb_create(txn, i, i)) DIE("duplicate in A");
        CK(mdb_txn_commit(txn));
        lat[i] = now_us() - a;
    }
    report("A_signup", "lmdb", mode, n, lat, n, now_us() - t0);
    MDB_txn *reader;
    CK(mdb_txn_begin(env, NULL, MDB_RDONLY, &reader));
    mdb_txn_reset(reader);
    t0 = now_us();
    for (int i = 0; i < n; i++) { /* B */
        char e[32], copy[256];
        email(e, (int)(rng() % n));
        double a = now_us();
        CK(mdb_txn_renew(reader));
        MDB_val key = {strlen(e), e}, id, value;
        CK(mdb_get(reader, emails_db, &key, &id));
        CK(mdb_get(reader, users_db, &id, &value));
        memcpy(copy, value.mv_data, value.mv_size < sizeof copy ? value.mv_size : sizeof copy);
        mdb_txn_reset(reader);
        lat[i] = now_us() - a;
    }
    report("B_lookup", "lmdb", mode, n, lat, n, now_us() - t0);
    t0 = now_us();
    for (int i = 0; i < n / 10; i++) { /* C */
        double a = now_us();
        CK(mdb_txn_begin(env, NULL, 0, &txn));
        if (lmdb_create(txn, n + i, (int)(rng() % n))) DIE("duplicate accepted");
        mdb_txn_abort(txn);
        lat[i] = now_us() - a;
    }
    report("C_duplicate", "lmdb", mode, n, lat, n / 10, now_us() - t0);
    int *order = malloc(sizeof(int) * n);
    for (int i = 0; i < n; i++) order[i] = i;
    for (int i = n - 1; i > 0; i--) { int j = (int)(rng() % (i + 1)), t = order[i]; order[i] = order[j]; order[j] = t; }
    t0 = now_us();
    for (int i = 0; i < n / 2; i++) { /* D */
        char id[40], e[32];
        uid(id, order[i]);
        email(e, order[i]);
        double a = now_us();
        CK(mdb_txn_begin(env, NULL, 0, &txn));
        MDB_val uk = {32, id}, value;
        CK(mdb_get(txn, users_db, &uk, &value));
        MDB_cursor *cursor; /* the user's sessions, by prefix (none in this workload) */
        CK(mdb_cursor_open(txn, user_sessions_db, &cursor));
        MDB_val prefix = {32, id}, data;
        mdb_cursor_get(cursor, &prefix, &data, MDB_SET_RANGE);
        mdb_cursor_close(cursor);
        MDB_val ek = {strlen(e), e};
        CK(mdb_del(txn, emails_db, &ek, NULL));
        CK(mdb_del(txn, users_db, &uk, NULL));
        CK(mdb_txn_commit(txn));
        lat[i] = now_us() - a;
    }
    report("D_withdraw", "lmdb", mode, n, lat, n / 2, now_us() - t0);
    mdb_txn_abort(reader);
    mdb_env_close(env);
    snprintf(path, sizeof path, "%s/raw-e.lmdb", dir);
    lmdb_open(path, mode);
    t0 = now_us();
    for (int i = 0; i < n; i++) { /* E */
        if (i % 1000 == 0) CK(mdb_txn_begin(env, NULL, 0, &txn));
        if (!lmdb_create(txn, i, i)) DIE("duplicate in E");
        if (i % 1000 == 999 || i == n - 1) CK(mdb_txn_commit(txn));
    }
    double total = now_us() - t0;
    for (int i = 0; i < n; i++) lat[i] = total / n;
    report("E_bulk_import", "lmdb", mode, n, lat, n, total);
    mdb_env_close(env);
}

/* ---------------------------------------------------------------- json */

static char *buf;
static size_t cap, len;
static void put(const char *s, size_t n) {
    if (len + n > cap) { while (len + n > cap) cap = cap ? cap * 2 : 1 << 16; buf = realloc(buf, cap); }
    memcpy(buf + len, s, n);
    len += n;
}
static void puts_(const char *s) { put(s, strlen(s)); }

static void serialize(int users) { /* the JSON store's layout; emails sort like their numbers */
    char line[512];
    len = 0;
    puts_("{\n  \"format\" : \"accountstore-json\",\n  \"format_version\" : 1,\n"
          "  \"store_id\" : \"0123456789abcdef0123456789abcdef\",\n  \"created_at_ms\" : 1700000000000,\n"
          "  \"users\" : [");
    for (int i = 0; i < users; i++) {
        char e[32], k[16], id[40];
        email(e, i); nick(k, i); uid(id, i);
        int n = snprintf(line, sizeof line,
                         "%s\n    {\n      \"id\" : \"%s\",\n      \"email\" : \"%s\",\n      \"nickname\" : \"%s\",\n"
                         "      \"password_hash\" : \"%s\",\n      \"created_at_ms\" : %lld,\n"
                         "      \"password_changed_at_ms\" : %lld,\n      \"failed_login_count\" : 0,\n"
                         "      \"last_failed_login_at_ms\" : null\n    }",
                         i ? "," : "", id, e, k, HASH, 1700000000000LL + i, 1700000000000LL + i);
        put(line, (size_t)n);
    }
    puts_(users ? "\n  ],\n  \"sessions\" : []\n}\n" : "],\n  \"sessions\" : []\n}\n");
}

static void run_json(int n, const char *dir) {
    char path[4096], tmp[4200];
    snprintf(path, sizeof path, "%s/raw.json", dir);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    int dirfd = open(dir, O_RDONLY | O_DIRECTORY);
    double *lat = malloc(sizeof(double) * n);
    double t0 = now_us();
    for (int i = 0; i < n; i++) {
        double a = now_us();
        serialize(i + 1);
        int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (write(fd, buf, len) != (ssize_t)len) DIE("write");
        fsync(fd);
        close(fd);
        rename(tmp, path);
        fsync(dirfd);
        lat[i] = now_us() - a;
    }
    double total = now_us() - t0;
    int tail = n / 10 < 100 ? (n / 10 ? n / 10 : 1) : 100;
    double tail_total = 0;
    for (int i = n - tail; i < n; i++) tail_total += lat[i];
    double *tail_lat = malloc(sizeof(double) * tail);
    memcpy(tail_lat, lat + n - tail, sizeof(double) * tail);
    report("A_signup", "json", "default", n, lat, n, total);
    report("A_signup_at_N", "json", "default", n, tail_lat, tail, tail_total);
    close(dirfd);
}

int main(int argc, char **argv) {
    if (argc != 5) DIE("usage: raw_bench sqlite|lmdb|json MODE N DIR");
    int n = atoi(argv[3]);
    rng_state = 0x5EED0000ULL + (uint64_t)n;
    if (strcmp(argv[1], "sqlite") == 0) run_sqlite(argv[2], n, argv[4]);
    else if (strcmp(argv[1], "lmdb") == 0) run_lmdb(argv[2], n, argv[4]);
    else if (strcmp(argv[1], "json") == 0) run_json(n, argv[4]);
    else DIE("unknown engine %s", argv[1]);
    return 0;
}
