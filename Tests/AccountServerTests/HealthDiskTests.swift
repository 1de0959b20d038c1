import AccountBackendKit
import AccountCore
import AccountServer
import AccountTestSupport
import BackendTestSupport
import Foundation
import MemoryBackend
import NIOHTTP1
import StandardBackends
import Testing

/// `/healthz` measures the disk under a store's files: a full disk fails every sign-up and
/// login while reads still answer, so a read alone would call the host healthy.
@Suite("Health and the store's disk")
struct HealthDiskTests {
    static let backends: [any BackendDescriptor] = BackendRegistry.embedded.descriptors + [MemoryBackendDescriptor()]
    /// More free space than any disk has, so the check must fail on a real one.
    static let unreachable: Int64 = 1 << 60

    @Test("/healthz reports the free space under a store's files, and 200 above the minimum", arguments: backends)
    func reportsFreeSpace(_ backend: any BackendDescriptor) async throws {
        try await LiveServer.with(backend, minimumFreeDiskBytes: 1) { server in
            let reply = try await server.send(.GET, "/healthz")
            #expect(reply.status == 200)
            #expect(reply.json["ok"] as? Bool == true)
            #expect(reply.json["backend"] as? String == backend.name)
            let free = (reply.json["disk_free_bytes"] as? NSNumber)?.int64Value
            let metrics = try await server.send(.GET, "/metrics").text
            if backend.storesInFiles {
                #expect((free ?? 0) > 0, "disk_free_bytes in \(reply.text)")
                #expect(metrics.contains("\naccounts_store_disk_free_bytes "), "\(metrics)")
            } else {
                #expect(free == nil, "a store without files on this host has no disk to report: \(reply.text)")
                #expect(!metrics.contains("accounts_store_disk_free_bytes"))
            }
        }
    }

    @Test(
        "below the minimum, /healthz is 503 store_disk_full with Retry-After in the client's language; the store is untouched",
        arguments: backends)
    func belowTheMinimum(_ backend: any BackendDescriptor) async throws {
        try await LiveServer.with(backend, minimumFreeDiskBytes: Self.unreachable) { server in
            let signUp = #"{"email":"leesoon7@example.com","password":"Tangerine-Kayak-42","nickname":"이순신"}"#
            #expect(try await server.send(.POST, "/v1/signup", json: signUp).status == 201)
            let english = try await server.send(.GET, "/healthz")
            let korean = try await server.send(.GET, "/healthz", headers: [("Accept-Language", "ko")])
            if backend.storesInFiles {
                #expect(english.status == 503)
                #expect(english.code == "store_disk_full")
                #expect(english.json["ok"] as? Bool == false)
                #expect(english.headers.first(name: "Retry-After") == "30")
                #expect((english.json["message"] as? String ?? "").contains("server.health_min_free_mib"))
                #expect(korean.status == 503)
                #expect((korean.json["message"] as? String ?? "").contains("저장소 디스크"))
            } else {
                #expect(english.status == 200, "nothing to measure: \(english.text)")
            }
            // The probe changes nothing: the user signed up before it is still there.
            #expect(try await server.repository.user(email: "leesoon7@example.com") != nil)
        }
    }

    @Test(
        "on PostgreSQL the store's disk is the server's: /healthz reports none and checks none",
        .enabled(if: PostgresTestServer.isConfigured, Comment(rawValue: PostgresTestServer.skipReason)))
    func postgres() async throws {
        try await LiveServer.with(Backends.postgres, minimumFreeDiskBytes: Self.unreachable) { server in
            let reply = try await server.send(.GET, "/healthz")
            #expect(reply.status == 200)
            #expect(reply.json["disk_free_bytes"] == nil)
        }
    }

    @Test("the free space is the disk's own figure, measured where the store's file will be")
    func measured() throws {
        let scratch = try ScratchFolder("health-disk")
        let missing = StoreDiskSpace(path: scratch.path + "/accounts.sqlite3", minimumFreeBytes: 0)
        var stats = statvfs()
        #expect(statvfs(scratch.path, &stats) == 0)
        let expected = Int64(stats.f_bavail) * Int64(stats.f_frsize)
        let measured = try #require(missing.availableBytes(), "a file not made yet is measured at its folder")
        // Other processes write to the same disk meanwhile.
        #expect(abs(measured - expected) < 256 << 20, "measured \(measured), statvfs said \(expected)")
        #expect(StoreDiskSpace(path: "/no/such/folder/file", minimumFreeBytes: 0).availableBytes() == nil)
    }
}
