import AccountBackendKit
import AccountCore
import AccountTestSupport
import DurableFiles
import Foundation
import Testing

/// The atomic replace every file store and the session file go through.
@Suite("Store files")
struct StoreFileTests {
    @Test("replace writes a new private file, and refuses a pipe, leaving it a pipe")
    func replaceRefusesAPipe() throws {
        let scratch = try ScratchFolder("store-file-replace")
        let file = scratch.path + "/store.json"
        _ = try StoreFile.replace(file, with: Array("{}\n".utf8))
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "{}\n")
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let pipe = try NamedPipe(scratch.path + "/session")
        #expect {
            _ = try StoreFile.replace(pipe.path, with: Array("token\n".utf8))
        } throws: { error in
            (error as? AccountError)?.message(.english)
                == "Store I/O error: \(pipe.path) is not a regular file (a pipe); \(pipe.path) was left as it was"
        }
        #expect(pipe.isStillAPipe)
        #expect(pipe.readAvailable().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: pipe.path + ".tmp"))
    }
}

extension StoreFileTests {
    @Test("a symbolic link is followed to the file it names, relative, chained or dangling; a loop ends")
    func followsLinks() throws {
        let scratch = try ScratchFolder("store-file-links")
        let root = scratch.path
        let fileManager = FileManager.default
        try fileManager.createDirectory(atPath: root + "/volume", withIntermediateDirectories: true)
        try fileManager.createSymbolicLink(atPath: root + "/relative", withDestinationPath: "volume/store")
        try fileManager.createSymbolicLink(atPath: root + "/chained", withDestinationPath: root + "/relative")
        try fileManager.createSymbolicLink(atPath: root + "/loop-a", withDestinationPath: "loop-b")
        try fileManager.createSymbolicLink(atPath: root + "/loop-b", withDestinationPath: "loop-a")
        #expect(StorePath.followingLinks(root + "/relative") == root + "/volume/store")
        #expect(StorePath.followingLinks(root + "/chained") == root + "/volume/store")
        #expect(StorePath.followingLinks(root + "/plain") == root + "/plain")
        #expect(StorePath.followingLinks(root + "/loop-a").hasPrefix(root + "/loop-"))
        _ = try StoreFile.replace(root + "/chained", with: Array("{}\n".utf8))
        #expect(try String(contentsOfFile: root + "/volume/store", encoding: .utf8) == "{}\n")
        #expect(try fileManager.destinationOfSymbolicLink(atPath: root + "/relative") == "volume/store")
    }
}
