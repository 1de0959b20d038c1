import Foundation

/// The free space on the disk under a store's files, which `/healthz` reports and checks: a
/// store that cannot grow fails every sign-up and login (each writes a session) while its reads
/// still answer, so a probe that only reads would call a full disk healthy.
public struct StoreDiskSpace: Sendable {
    /// The store's file or folder; while it does not exist yet, the folder it will be made in.
    public let path: String
    /// Below this many bytes free, `/healthz` answers 503 `store_disk_full`; 0 only reports.
    public let minimumFreeBytes: Int64

    /// - Parameters:
    ///   - path: the store's file or folder.
    ///   - minimumFreeBytes: the least free space `/healthz` calls healthy.
    public init(path: String, minimumFreeBytes: Int64) {
        self.path = path
        self.minimumFreeBytes = minimumFreeBytes
    }

    /// The bytes a process without root's reserve may still write there, or `nil` when neither
    /// the path nor its folder can be measured.
    public func availableBytes() -> Int64? {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        for candidate in [path, folder] {
            var stats = statvfs()
            if statvfs(candidate, &stats) == 0 { return Int64(stats.f_bavail) * Int64(stats.f_frsize) }
        }
        return nil
    }
}

/// The store's disk has less free space than `server.health_min_free_mib`: `/healthz` answers
/// 503 `store_disk_full`.
public struct StoreDiskFull: Error, Sendable {
    /// Bytes free when measured.
    public let availableBytes: Int64
    /// The least free space called healthy.
    public let minimumFreeBytes: Int64
    /// Whether the answer may show the figures: only a monitoring client's does.
    public let detailed: Bool
    /// When a load balancer or monitor should look again.
    public var retryAfterSeconds: Int64 { 30 }

    /// - Parameters: see the properties.
    public init(availableBytes: Int64, minimumFreeBytes: Int64, detailed: Bool = true) {
        self.availableBytes = availableBytes
        self.minimumFreeBytes = minimumFreeBytes
        self.detailed = detailed
    }
}
