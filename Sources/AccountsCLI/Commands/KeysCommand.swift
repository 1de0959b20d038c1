#if Server
    import AccountCore
    import AccountJSON
    import AccountServerSettings
    import AccountSettings
    import AccountTokens
    import ArgumentParser

    /// The keys that sign access tokens (`session.access_tokens: jwt`).
    struct KeysCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "keys",
            abstract: "List or rotate the keys that sign access tokens (session.access_tokens: jwt).",
            subcommands: [List.self, Rotate.self])

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "list", abstract: "List the signing keys (ids and dates, never a key).")
            @OptionGroup var options: StorelessOptions

            func run() async throws {
                try await CommandContext.run(options) { context in
                    let settings = context.settings
                    let now = SystemClock().now()
                    let ring = try SigningKeyFile.ring(at: settings.accessTokens.keyFile, now: now)
                    return KeysCommand.reply(ring, context: context, now: now)
                }
            }
        }

        struct Rotate: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "rotate",
                abstract: "Sign with a new key from now on; the previous one stays published until its tokens expire.",
                discussion: """
                    Every server that reads the key file signs with the new key from its next token. \
                    With --now (a key that may have leaked) the previous keys are dropped at once, and \
                    every access token they signed is refused from now on, by this server and by \
                    services that fetch /.well-known/jwks.json again.
                    """)
            @Flag(name: .long, help: "Drop the previous keys at once: their tokens are refused from now on.")
            var now = false
            @OptionGroup var options: StorelessOptions

            func run() async throws {
                try await CommandContext.run(options) { context in
                    let settings = context.settings
                    let time = SystemClock().now()
                    let ring = try SigningKeyFile.rotate(
                        at: settings.accessTokens.keyFile, now: time,
                        tokenLifetimeSeconds: settings.sessionPolicy.accessTokenLifetimeSeconds, droppingOthers: now)
                    var reply = KeysCommand.reply(ring, context: context, now: time)
                    reply.lines.insert(context.messages.rotated(to: ring.current?.id ?? "", droppingOthers: now), at: 0)
                    return reply
                }
            }
        }

        /// The keys, one line each, and as `keys` in JSON.
        static func reply(_ ring: SigningKeyRing, context: CommandContext, now: Timestamp) -> CommandReply {
            let lifetime = context.settings.sessionPolicy.accessTokenLifetimeSeconds
            let published = Set(ring.published(at: now, tokenLifetimeSeconds: lifetime).map(\.id))
            let lines = ring.keys.map { key in
                context.messages.signingKey(
                    id: key.id, created: key.createdAt.minuteUTC, retired: key.retiredAt?.minuteUTC,
                    published: published.contains(key.id))
            }
            let items = ring.keys.map { key in
                JSONValue.object(
                    [
                        ("created_at_ms", .int(key.createdAt.millisecondsSince1970)), ("kid", .string(key.id)),
                        ("published", .bool(published.contains(key.id))),
                    ] + (key.retiredAt.map { [("retired_at_ms", JSONValue.int($0.millisecondsSince1970))] } ?? []))
            }
            return CommandReply(lines: lines, fields: [("keys", .array(items))])
        }
    }
#endif
