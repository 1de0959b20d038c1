import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// An SMTP relay on a free loopback port that answers each command line as its script says,
/// and records what it was sent: the commands, and each message's lines between `DATA` and its
/// lone period.
final class ScriptedRelay: Sendable {
    /// What the relay was sent.
    struct Record: Sendable {
        var commands: [String] = []
        var messages: [[String]] = []
    }

    let port: Int
    private let channel: any Channel
    private let record = RelayRecorder()

    /// Starts a relay whose greeting is `greeting` and whose answer to a command line is
    /// `script(line)` (the raw bytes to send, CRLFs included).
    init(greeting: String = "220 relay ready\r\n", script: @escaping @Sendable (String) -> String) async throws {
        let record = self.record
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.addHandler(
                        RelayHandler(greeting: greeting, script: script, record: record))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        port = channel.localAddress?.port ?? 0
    }

    var recorded: Record { record.state.withLock { $0 } }

    func stop() async {
        try? await channel.close()
    }

    /// A script for a relay that takes every mail: `EHLO` lists `extensions`.
    static func accepting(extensions: [String] = ["8BITMIME"]) -> @Sendable (String) -> String {
        { line in
            let verb = line.split(separator: " ").first.map { $0.uppercased() } ?? ""
            switch verb {
            case "EHLO":
                let lines = ["relay.test greets you"] + extensions
                return lines.enumerated().map { index, text in
                    "250" + (index == lines.count - 1 ? " " : "-") + text + "\r\n"
                }.joined()
            case "DATA": return "354 go ahead\r\n"
            case "QUIT": return "221 bye\r\n"
            default: return "250 ok\r\n"
            }
        }
    }
}

private final class RelayHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let greeting: String
    private let script: @Sendable (String) -> String
    private let record: RelayRecorder
    private var unread = ""
    private var message: [String]?

    init(greeting: String, script: @escaping @Sendable (String) -> String, record: RelayRecorder) {
        self.greeting = greeting
        self.script = script
        self.record = record
    }

    func channelActive(context: ChannelHandlerContext) {
        reply(context, greeting)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        unread += bytes.readString(length: bytes.readableBytes) ?? ""
        while let end = unread.range(of: "\r\n") {
            let line = String(unread[..<end.lowerBound])
            unread = String(unread[end.upperBound...])
            if var lines = message {
                if line == "." {
                    message = nil
                    record.state.withLock { $0.messages.append(lines) }
                    reply(context, "250 queued\r\n")
                } else {
                    lines.append(line)
                    message = lines
                }
                continue
            }
            record.state.withLock { $0.commands.append(line) }
            let answer = script(line)
            if line.uppercased() == "DATA", answer.hasPrefix("354") { message = [] }
            reply(context, answer)
        }
    }

    private func reply(_ context: ChannelHandlerContext, _ text: String) {
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: text)), promise: nil)
    }
}

/// What a relay was sent, shared by its connections.
private final class RelayRecorder: Sendable {
    let state = Mutex(ScriptedRelay.Record())
}
