/// The name a session keeps of the device that opened it ("Firefox on Linux", "My phone"), so
/// that its user can tell where they are signed in. A client may give one; otherwise the
/// server names the device from its User-Agent.
public enum DeviceName {
    /// The most characters (grapheme clusters) a device name may have.
    public static let maximumLength = 64

    /// Whether a client's device name may be stored as it is: 1 to ``maximumLength``
    /// characters, none of them one a reader would not see (a control, format or separator
    /// character, as ``Nickname`` refuses). A name that breaks the rule is refused, never
    /// trimmed or cut to fit, so what the client sent is what its user sees.
    public static func accepts(_ name: String) -> Bool {
        guard !name.isEmpty, name.count <= maximumLength else { return false }
        return !name.contains { character in
            character.unicodeScalars.contains { Nickname.isHidden($0, in: character) }
        }
    }

    /// A short name for the client that sent `userAgent`: its browser and system
    /// ("Firefox on Linux", "Safari on iPhone"), else the product it names first ("curl",
    /// "okhttp"), else an empty name. Only the words listed below are ever taken from a
    /// browser's string, so nothing a client hides in it reaches the page.
    public static func describing(userAgent: String?) -> String {
        guard let userAgent, !userAgent.isEmpty else { return "" }
        let browser = browsers.first { userAgent.contains($0.marker) }?.name
        let system = systems.first { userAgent.contains($0.marker) }?.name
        switch (browser, system) {
        case (let browser?, let system?): return "\(browser) on \(system)"
        case (let browser?, nil): return browser
        case (nil, let system?): return "App on \(system)"
        case (nil, nil): return product(of: userAgent)
        }
    }

    /// The first product token of a User-Agent (`curl` of `curl/8.5.0`), if it is a plain
    /// word that fits.
    private static func product(of userAgent: String) -> String {
        let token = userAgent.prefix { $0 != "/" && $0 != " " }
        let plain = token.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                || "-_.".unicodeScalars.contains($0)
        }
        return plain && token.count <= maximumLength ? String(token) : ""
    }

    /// Browsers, the more specific first: Edge and Opera also say "Chrome", and Chrome says
    /// "Safari".
    private static let browsers: [(marker: String, name: String)] = [
        ("Edg/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"), ("Chrome/", "Chrome"), ("Chromium/", "Chromium"),
        ("Safari/", "Safari"),
    ]

    /// Systems, the more specific first: Android also says "Linux", an iPhone "Mac OS X".
    private static let systems: [(marker: String, name: String)] = [
        ("Android", "Android"), ("iPhone", "iPhone"), ("iPad", "iPad"), ("Windows", "Windows"), ("CrOS", "ChromeOS"),
        ("Mac OS X", "macOS"), ("Macintosh", "macOS"), ("Linux", "Linux"),
    ]
}
