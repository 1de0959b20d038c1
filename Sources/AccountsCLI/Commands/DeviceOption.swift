import ArgumentParser

/// `--device NAME`: what `accounts sessions` (and the web page of the user's sessions) calls the
/// device a sign-up or login opens its session on, so two machines or two shells tell apart.
struct DeviceOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "A name for this device in the list of sessions (default: accounts on HOST).", valueName: "name"))
    var device: String?

    /// The name given, or `<program> on <host name>`.
    func name(_ program: String) -> String {
        device ?? ThisDevice.name(program)
    }
}
