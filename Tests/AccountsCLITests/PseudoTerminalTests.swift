import AccountTestSupport
import Foundation
import Testing

/// What `PseudoTerminal` passes on to its child: the terminal, and nothing else of the test
/// process's.
@Suite("Pseudo-terminal children")
struct PseudoTerminalTests {
    @Test("a descriptor the test process opened without close-on-exec does not reach the child")
    func inheritedDescriptorsClosed() throws {
        let scratch = try ScratchFolder("pty-descriptors")
        let path = scratch.path + "/held-open"
        let descriptor = open(path, O_CREAT | O_RDWR, 0o600)
        #expect(descriptor >= 3)
        defer { close(descriptor) }
        let descriptors = try PseudoTerminal.descriptorsOfNewChild()
        #expect(!descriptors.contains("held-open"), "the child holds the test's file open: \(descriptors)")
        #expect(descriptors.contains("/dev/pts/"), "the child has no terminal: \(descriptors)")
    }
}
