# Aggregates `impl RESULT phase engine mode N ops seconds mean_us p50 p99 rss_kib` lines (impl:
# baseline, raw or swift): the median mean_us (and p50, p99) over runs per implementation, then
# Swift/baseline (all the store adds), raw/baseline (its layout) and Swift/raw (Swift on top).
function median(list,    n, values, i, j, t) {
    n = split(list, values, " ")
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (values[j] + 0 < values[i] + 0) { t = values[i]; values[i] = values[j]; values[j] = t }
    return n % 2 ? values[(n + 1) / 2] : (values[n / 2] + values[n / 2 + 1]) / 2
}
function ratio(a, b) { return a > 0 && b > 0 ? sprintf("%.2f", a / b) : "-" }
$2 == "RESULT" {
    key = $3 "\t" $4 "\t" $5 "\t" $6
    if (!(key in seen)) { seen[key] = 1; order[++count] = key }
    mean[$1, key] = mean[$1, key] " " $9
    p50[$1, key] = p50[$1, key] " " $10
    p99[$1, key] = p99[$1, key] " " $11
    if ($12 + 0 > rss[$1, key] + 0) rss[$1, key] = $12
    if ($3 !~ /^hash/) {
        if (smallest == "" || $6 + 0 < smallest + 0) smallest = $6
        if ($6 + 0 > largest + 0) largest = $6
    }
}
END {
    printf "%-15s %-7s %-8s %7s %9s %9s %9s %10s %7s %9s %9s %9s %9s %9s\n", "phase", "engine", "mode", "N", \
        "base us", "raw us", "swift us", "swift/base", "layout", "swift/raw", "swift p50", "swift p99", "peak RSS", "raw RSS"
    for (i = 1; i <= count; i++) {
        key = order[i]
        split(key, k, "\t")
        b = ("baseline", key) in mean ? median(mean["baseline", key]) : 0
        r = ("raw", key) in mean ? median(mean["raw", key]) : 0
        s = ("swift", key) in mean ? median(mean["swift", key]) : 0
        # (No `>` among printf's arguments: awk would read it as a redirection.)
        base_text = b ? sprintf("%.2f", b) : "-"
        raw_text = r ? sprintf("%.2f", r) : "-"
        printf "%-15s %-7s %-8s %7s %9s %9s %9.2f %10s %7s %9s %9.1f %9.1f %6.1f MiB %6.1f MiB\n", k[1], k[2], k[3], k[4], \
            base_text, raw_text, s, ratio(s, b), ratio(r, b), ratio(s, r), \
            ("swift", key) in p50 ? median(p50["swift", key]) : 0, \
            ("swift", key) in p99 ? median(p99["swift", key]) : 0, rss["swift", key] / 1024, rss["raw", key] / 1024
        swift_mean[k[1], k[2], k[4]] = s
        raw_mean[k[1], k[2], k[4]] = r
    }
    if (smallest == largest) exit
    printf "\ngrowth of per-op cost from N = %d to N = %d (target for Swift <= 1.30 on sqlite and lmdb);\n", smallest, largest
    print "the raw engines' own growth beside it:"
    printf "  %-15s %-7s %6s %6s\n", "phase", "engine", "swift", "raw"
    for (i = 1; i <= count; i++) {
        split(order[i], k, "\t")
        if (k[4] != largest) continue
        small = swift_mean[k[1], k[2], smallest]
        raw_small = raw_mean[k[1], k[2], smallest]
        if (small > 0 && raw_small > 0)
            printf "  %-15s %-7s %6.2f %6.2f\n", k[1], k[2], swift_mean[k[1], k[2], largest] / small, \
                raw_mean[k[1], k[2], largest] / raw_small
    }
}
