#if Server
    import AccountCore
    import AccountServer

    /// `serve` could not listen, for now: its own code and exit status (11), which the systemd
    /// unit restarts, unlike a configuration error (8).
    extension CannotListen: CommandFailure {
        var code: String { "cannot_listen" }
        var exitStatus: Int32 { ExitStatus.cannotListen }

        func message(_ language: Language) -> String {
            language == .korean
                ? "수신 대기할 수 없습니다: \(reason). 잠시 후 다시 시도하세요."
                : "Cannot listen: \(reason); try again later."
        }
    }
#endif
