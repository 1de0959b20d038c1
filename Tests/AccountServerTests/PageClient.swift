import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization

/// A browser's share of HTTP for the web pages: keeps cookies as a browser would (a cleared
/// cookie is dropped), does not follow redirects (so each 303 and its cookies can be checked),
/// and reads the form token out of the last page, as a form would send it.
final class PageClient: Sendable {
    private struct State {
        var jar: [String: String] = [:]
        var lastPage = ""
    }
    private let state = Mutex(State())
    let client: HTTPClient
    let port: Int
    let acceptLanguage: String?

    struct Page {
        let status: Int
        let headers: HTTPHeaders
        let html: String
        /// Each `Set-Cookie` line by cookie name.
        let setCookies: [String: String]
        var location: String? { headers.first(name: "Location") }
    }

    init(port: Int, acceptLanguage: String? = nil) {
        self.port = port
        self.acceptLanguage = acceptLanguage
        client = HTTPClient(
            eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
    }

    func shutdown() async throws { try await client.shutdown() }

    func cookie(_ name: String) -> String? { state.withLock { $0.jar[name] } }

    func setCookie(_ name: String, _ value: String?) { state.withLock { $0.jar[name] = value } }

    /// The last HTML page received.
    var lastPage: String { state.withLock { $0.lastPage } }

    /// The form token in the last page's form.
    var formToken: String? {
        lastPage.firstMatch(of: /name="csrf" value="([0-9a-f]+)"/).map { String($0.1) }
    }

    func get(_ path: String) async throws -> Page {
        try await send(.GET, path, body: nil, contentType: nil)
    }

    /// Posts `fields` form-encoded, with the last page's form token unless `token` is given
    /// (`.some(nil)` sends none).
    func post(_ path: String, _ fields: [(String, String)], token: String?? = .none) async throws -> Page {
        var all = fields
        let sent: String? = token ?? formToken
        if let sent { all.append(("csrf", sent)) }
        let body = all.map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&")
        return try await send(.POST, path, body: body, contentType: "application/x-www-form-urlencoded")
    }

    func send(
        _ method: HTTPMethod, _ path: String, body: String?, contentType: String?, accept: String? = nil,
        headers extra: [(String, String)] = []
    ) async throws -> Page {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = method
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        if let contentType { request.headers.add(name: "Content-Type", value: contentType) }
        if let acceptLanguage { request.headers.add(name: "Accept-Language", value: acceptLanguage) }
        if let accept { request.headers.add(name: "Accept", value: accept) }
        for (name, value) in extra { request.headers.add(name: name, value: value) }
        let cookies = state.withLock { $0.jar.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: "; ") }
        if !cookies.isEmpty { request.headers.add(name: "Cookie", value: cookies) }
        let response = try await client.execute(request, timeout: .seconds(60))
        let html = String(buffer: try await response.body.collect(upTo: 1 << 20))
        var setCookies: [String: String] = [:]
        for line in response.headers["Set-Cookie"] {
            let pair = line.split(separator: ";", maxSplits: 1)[0].split(separator: "=", maxSplits: 1)
            let name = String(pair[0])
            let value = pair.count > 1 ? String(pair[1]) : ""
            setCookies[name] = line
            let expired = line.contains("Max-Age=0") || value.isEmpty
            state.withLock { $0.jar[name] = expired ? nil : value }
        }
        if response.headers.first(name: "Content-Type")?.hasPrefix("text/html") == true {
            state.withLock { $0.lastPage = html }
        }
        return Page(status: Int(response.status.code), headers: response.headers, html: html, setCookies: setCookies)
    }

    private func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}

extension String {
    /// The text of the element with `id` (tags stripped), for checking what a page says there.
    func element(id: String) -> String? {
        guard let start = range(of: "id=\"\(id)\"") else { return nil }
        let rest = self[start.upperBound...]
        guard let open = rest.firstIndex(of: ">") else { return nil }
        let tag = self[..<start.lowerBound].split(separator: "<").last?.split(separator: " ").first ?? "p"
        guard let close = rest.range(of: "</\(tag)>") else { return nil }
        return String(rest[rest.index(after: open)..<close.lowerBound])
            .replacing(/<[^>]+>/, with: " ").split(separator: " ", omittingEmptySubsequences: true)
            .joined(separator: " ")
    }
}
