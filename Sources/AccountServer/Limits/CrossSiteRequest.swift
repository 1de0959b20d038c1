import HTTPTypes
package import Hummingbird

/// Whether a posted form comes from a page of another site, refused before any work: the web
/// pages' forms (a form token alone cannot tell, when another site can plant its own cookie: a
/// sibling subdomain, a plain-HTTP hop) and the form bodies the Strapi routes take (a page of any
/// site can post a form there without a CORS preflight). Browsers say where a request comes from
/// in Fetch Metadata, which every current one sends; for one that does not, the `Origin` of a
/// POST must be this site's.
package enum CrossSiteRequest {
    static let fetchSite = HTTPField.Name("Sec-Fetch-Site")!

    /// `Sec-Fetch-Site: cross-site`; or, without Fetch Metadata, an `Origin` that is `null` or
    /// whose host and port are not the request's `Host` (a proxy must pass `Host` on, as the
    /// *Deploying* article's configurations do). A request with neither is not a browser's
    /// cross-site post (a script or a form on an old browser), and the form token decides.
    package static func isCrossSite(_ request: Request) -> Bool {
        if let site = request.headers[fetchSite] { return site.lowercased() == "cross-site" }
        guard let origin = request.headers[.origin]?.lowercased() else { return false }
        guard let host = request.head.authority?.lowercased(), origin != "null" else { return true }
        let authority = origin.split(separator: "://", maxSplits: 1).last.map(String.init) ?? origin
        return authority != host && authority != Self.withoutDefaultPort(host, scheme: origin)
    }

    /// `host` without `:80` for an `http` origin, or `:443` for an `https` one.
    private static func withoutDefaultPort(_ host: String, scheme origin: String) -> String {
        let port = origin.hasPrefix("https://") ? ":443" : ":80"
        return host.hasSuffix(port) ? String(host.dropLast(port.count)) : host
    }
}
