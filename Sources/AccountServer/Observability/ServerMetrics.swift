public import AccountCore
import Prometheus
import Synchronization

/// The server's Prometheus metrics, served at `/metrics`: requests by route, method and status,
/// their latency, the hashing queue (depth, in progress, rejections), the free space on the
/// store's disk, and the request log's dropped lines. Each server has its own registry, so several in one process (tests, an
/// application with two) never mix.
public final class ServerMetrics: Sendable {
    private let registry = PrometheusCollectorRegistry()
    private let gate: HashingGate
    private let storeDisk: StoreDiskSpace?
    private let log: LogLineWriter?
    private let rejectionsSeen = Mutex(0)
    private let droppedLinesSeen = Mutex(0)
    private var requests: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "accounts", subsystem: "http", metricName: "requests", unitName: "total",
            helpText: "HTTP requests by route, method and status")
    }
    private var latency: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "accounts", subsystem: "http", metricName: "request_duration", unitName: "seconds",
            helpText: "HTTP request latency by route and method")
    }
    private let buckets: [Duration] = [
        .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
        .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5),
    ]

    /// - Parameters:
    ///   - gate: the hashing queue whose depth and rejections are reported.
    ///   - storeDisk: the disk under the store's files, whose free space is reported.
    ///   - log: the request log's writer, whose dropped lines are counted (an alert on them
    ///     says the log's reader is not keeping up).
    public init(gate: HashingGate, storeDisk: StoreDiskSpace? = nil, log: LogLineWriter? = nil) {
        self.gate = gate
        self.storeDisk = storeDisk
        self.log = log
    }

    private struct Key: Hashable {
        let route: String
        let method: String
        let status: Int
    }
    /// The collectors already made, so a request costs a dictionary lookup, not a registry's.
    private let collectors = Mutex<[Key: (requests: Counter, latency: DurationHistogram)]>([:])

    /// Counts one request. `route` is the matched route pattern (never the raw path, so the
    /// label stays bounded), or "unmatched".
    func record(method: String, route: String, status: Int, duration: Duration) {
        let key = Key(route: route, method: method, status: status)
        let (counter, histogram) = collectors.withLock { collectors in
            if let made = collectors[key] { return made }
            let made = (
                registry.makeCounter(
                    descriptor: requests,
                    labels: [("route", route), ("method", method), ("status", String(status))]),
                registry.makeDurationHistogram(
                    descriptor: latency, labels: [("route", route), ("method", method)], buckets: buckets)
            )
            collectors[key] = made
            return made
        }
        counter.increment()
        histogram.record(duration)
    }

    /// The exposition text, with `legacySchemes` (accounts per legacy password scheme) as
    /// gauges labelled by scheme, and the store's outbox (mail waiting, mail that failed at
    /// least once, the oldest mail's age at `now`).
    public func emit(legacySchemes: [String: Int] = [:], outbox: OutboxSummary? = nil, now: Timestamp? = nil) -> String
    {
        if let outbox {
            for (name, help, value) in [
                ("queued", "Mails waiting in the store's outbox", outbox.queued),
                ("failing", "Mails in the outbox that failed at least once (see accounts doctor)", outbox.failing),
            ] {
                registry.makeGauge(
                    descriptor: MetricNameDescriptor(
                        namespace: "accounts", subsystem: "outbox", metricName: name, unitName: "", helpText: help)
                ).set(Double(value))
            }
            var age: Int64 = 0
            if let oldest = outbox.oldest, let now { age = oldest.secondsUntil(now) }
            registry.makeGauge(
                descriptor: MetricNameDescriptor(
                    namespace: "accounts", subsystem: "outbox", metricName: "oldest_age", unitName: "seconds",
                    helpText: "How long the oldest mail in the outbox has waited")
            ).set(Double(age))
        }
        for (scheme, count) in legacySchemes {
            registry.makeGauge(
                descriptor: MetricNameDescriptor(
                    namespace: "accounts", subsystem: "users", metricName: "legacy_password_scheme", unitName: "",
                    helpText: "Accounts still on a legacy password scheme (Argon2id at their next login)"),
                labels: [("scheme", scheme)]
            ).set(Double(count))
        }
        registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "accounts", subsystem: "hashing", metricName: "queue_depth", unitName: "",
                helpText: "Requests in the hashing gate that are not hashing now")
        ).set(Double(gate.queueDepth))
        registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "accounts", subsystem: "hashing", metricName: "in_progress", unitName: "",
                helpText: "Requests holding an Argon2id slot")
        ).set(Double(gate.inProgress))
        count(
            MetricNameDescriptor(
                namespace: "accounts", subsystem: "hashing", metricName: "rejections", unitName: "total",
                helpText: "Requests answered 503 because the hashing queue was full"),
            upTo: gate.rejections, seen: rejectionsSeen)
        if let free = storeDisk?.availableBytes() {
            registry.makeGauge(
                descriptor: MetricNameDescriptor(
                    namespace: "accounts", subsystem: "store", metricName: "disk_free", unitName: "bytes",
                    helpText: "Free bytes on the disk under the store's files (/healthz fails below its minimum)")
            ).set(Double(free))
        }
        if let log {
            count(
                MetricNameDescriptor(
                    namespace: "accounts", subsystem: "log", metricName: "lines_dropped", unitName: "total",
                    helpText: "Request log lines dropped because standard error did not take them in time"),
                upTo: log.droppedLineCount, seen: droppedLinesSeen)
        }
        return registry.emitToString()
    }

    /// Brings the counter `descriptor` up to `total`, a count kept elsewhere; `seen` is how far
    /// it was brought before.
    private func count(_ descriptor: MetricNameDescriptor, upTo total: Int, seen: borrowing Mutex<Int>) {
        let counter = registry.makeCounter(descriptor: descriptor)
        let delta = seen.withLock { seen in
            defer { seen = max(seen, total) }
            return total - seen
        }
        if delta > 0 { counter.increment(by: Int64(delta)) }
    }
}
