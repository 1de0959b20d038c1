import Foundation

/// A web origin as a browser sends it in `Origin` (`https://app.example.com`,
/// `http://localhost:3000`), for `server.cors_origins`: the scheme and host in lowercase, the
/// port only when it is not the scheme's default, and nothing else — no path, not even `/`.
/// The server compares origins as text, so an entry written any other way would match no page.
public enum WebOrigin {
    /// `text` written as a browser sends it, or `nil` when it names no origin a browser sends:
    /// not `http` or `https`, no host, a host that is not ASCII (browsers send the `xn--` form),
    /// a port out of range, or a user, a path, a query or a fragment.
    public static func serialized(_ text: String) -> String? {
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty,
            host.allSatisfy(\.isASCII), url.user == nil, url.password == nil, url.query == nil, url.fragment == nil,
            url.path.isEmpty || url.path == "/"
        else { return nil }
        let defaultPort = scheme == "https" ? 443 : 80
        if let port = url.port {
            guard (1...65_535).contains(port) else { return nil }
            if port != defaultPort { return "\(scheme)://\(host.lowercased()):\(port)" }
        }
        return "\(scheme)://\(host.lowercased())"
    }

    /// Why `text` is refused as an origin, or `nil` when it is one as a browser sends it.
    public static func problem(_ text: String) -> String? {
        switch serialized(text) {
        case text: return nil
        case let written?: return "\"\(text)\" is not an origin as a browser sends it; write \(written)"
        case nil:
            return "\"\(text)\" is not a web origin; write scheme://host[:port], such as https://app.example.com"
        }
    }
}
