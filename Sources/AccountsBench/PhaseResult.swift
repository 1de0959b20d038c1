#if canImport(Glibc)
    import Glibc
#endif

/// One phase's figures: operations, total time, per-operation latency, peak memory.
struct PhaseResult {
    let phase: String
    let backend: String
    let mode: String
    let n: Int
    let latenciesMicroseconds: [Double]
    let seconds: Double

    var ops: Int { latenciesMicroseconds.count }
    var meanMicroseconds: Double { ops == 0 ? 0 : seconds * 1e6 / Double(ops) }

    func percentile(_ fraction: Double) -> Double {
        guard !latenciesMicroseconds.isEmpty else { return 0 }
        let sorted = latenciesMicroseconds.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
    }

    /// The process's peak resident set so far, in KiB.
    static var peakRSSKiB: Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss
    }

    /// `RESULT phase engine mode N ops seconds mean_us p50_us p99_us peak_rss_kib`, tab-separated.
    /// The header of the `RESULT` lines (a comment for tools: `bench/aggregate.awk` skips it).
    static let header = [
        "# RESULT", "phase", "backend", "mode", "N", "ops", "seconds", "mean_us", "p50_us", "p99_us", "peak_rss_kib",
    ].joined(separator: "\t")

    func resultLine() -> String {
        [
            "RESULT", phase, backend, mode, String(n), String(ops), format(seconds, 4), format(meanMicroseconds, 2),
            format(percentile(0.5), 1), format(percentile(0.99), 1), String(Self.peakRSSKiB),
        ].joined(separator: "\t")
    }

    func jsonObject() -> String {
        """
        {"phase":"\(phase)","backend":"\(backend)","mode":"\(mode)","n":\(n),"ops":\(ops),"seconds":\(format(seconds, 4)),\
        "mean_us":\(format(meanMicroseconds, 2)),"p50_us":\(format(percentile(0.5), 1)),"p99_us":\(format(percentile(0.99), 1)),\
        "peak_rss_kib":\(Self.peakRSSKiB)}
        """
    }

    private func format(_ value: Double, _ digits: Int) -> String {
        var text = String(Int((value * pow(10, Double(digits))).rounded()))
        while text.count <= digits { text = "0" + text }
        text.insert(".", at: text.index(text.endIndex, offsetBy: -digits))
        return text
    }
}
