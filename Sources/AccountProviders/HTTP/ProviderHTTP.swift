import AccountCore
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// The server's calls to a provider: bounded in time and size, and every failure an
/// ``AccountError/providerFailed(provider:reason:)`` that names what went wrong without the
/// request's secrets or the answer's tokens.
struct ProviderHTTP: Sendable {
    let client: HTTPClient
    /// The provider's name, for the errors.
    let provider: String

    /// How long one call may take, connection included.
    static let timeout = TimeAmount.seconds(10)
    /// The most of an answer read: discovery documents, key sets and tokens are a few KiB.
    static let answerLimit = 1 << 20

    /// A provider's answer.
    struct Answer {
        var status: HTTPResponseStatus
        var body: [UInt8]
    }

    func get(_ url: String, headers: [(String, String)] = []) async throws -> Answer {
        var request = HTTPClientRequest(url: url)
        request.method = .GET
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        return try await send(request, url: url)
    }

    /// A form post (`application/x-www-form-urlencoded`, RFC 6749 §4.1.3).
    func postForm(_ url: String, _ form: [(String, String)], headers: [(String, String)] = []) async throws -> Answer {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(string: FormEncoding.encode(form)))
        return try await send(request, url: url)
    }

    /// `answer`'s body as `T`, when it is JSON of that shape.
    func decode<T: Decodable>(_ type: T.Type, from answer: Answer, what: String) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(answer.body))
        } catch {
            throw AccountError.providerFailed(provider: provider, reason: "its \(what) is not the JSON expected")
        }
    }

    private func send(_ request: HTTPClientRequest, url: String) async throws -> Answer {
        let endpoint = Self.endpoint(url)
        do {
            let response = try await client.execute(request, timeout: Self.timeout)
            var body = try await response.body.collect(upTo: Self.answerLimit)
            return Answer(status: response.status, body: body.readBytes(length: body.readableBytes) ?? [])
        } catch let error as AccountError {
            throw error
        } catch let error as NIOTooManyBytesError {
            _ = error
            throw AccountError.providerFailed(provider: provider, reason: "\(endpoint) answered more than 1 MiB")
        } catch {
            throw AccountError.providerFailed(provider: provider, reason: "\(endpoint) cannot be reached: \(error)")
        }
    }

    /// `url` without its query, which may hold a code or a token.
    static func endpoint(_ url: String) -> String {
        String(url.prefix { $0 != "?" })
    }
}
