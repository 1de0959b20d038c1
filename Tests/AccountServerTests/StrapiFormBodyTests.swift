import AccountBackendKit
import AccountCore
import BackendTestSupport
import NIOHTTP1
import Testing

@testable import AccountServer

/// Strapi's body parser takes JSON, urlencoded forms and multipart forms, and the apps built on
/// it post sign-ups as forms (`URLSession` with `username=…&email=…&password=…`): the Strapi
/// routes take all three, with the same answers and the same errors for each.
@Suite("Strapi routes: JSON, urlencoded and multipart bodies")
struct StrapiFormBodyTests {
    static let password = "Tangerine-Kayak-42"
    static let newPassword = "Quokka-Lantern-77"

    /// One way of sending a body's fields.
    enum Encoding: String, CaseIterable, CustomTestStringConvertible {
        case json, urlencoded, multipart

        var testDescription: String { rawValue }

        static let boundary = "----AccountStoreBoundary7MA4YWxkTrZu0gW"

        var contentType: String {
            switch self {
            case .json: "application/json"
            case .urlencoded: "application/x-www-form-urlencoded"
            case .multipart: "multipart/form-data; boundary=\(Self.boundary)"
            }
        }

        /// The body for `fields`, in order (a name may repeat).
        func body(_ fields: [(String, String)]) -> String {
            switch self {
            case .json:
                return "{" + fields.map { #""\#($0.0)":"\#($0.1)""# }.joined(separator: ",") + "}"
            case .urlencoded:
                return fields.map { "\(Self.formEscaped($0.0))=\(Self.formEscaped($0.1))" }.joined(separator: "&")
            case .multipart:
                return fields.map {
                    "--\(Self.boundary)\r\nContent-Disposition: form-data; name=\"\($0.0)\"\r\n\r\n\($0.1)\r\n"
                }.joined() + "--\(Self.boundary)--\r\n"
            }
        }

        /// As a form encoder sends it: letters, digits and `-._~` as they are, every other byte
        /// as `%XX`.
        static func formEscaped(_ text: String) -> String {
            let kept = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
            let digits = Array("0123456789ABCDEF")
            return String(
                text.utf8.flatMap { byte in
                    kept.contains(byte)
                        ? [Character(Unicode.Scalar(byte))] : ["%", digits[Int(byte >> 4)], digits[Int(byte & 0x0f)]]
                })
        }
    }

    @Test("register, login and change password, posted each way", arguments: Encoding.allCases)
    func flow(_ encoding: Encoding) async throws {
        try await LiveServer.with(Backends.sqlite) { server in
            let registered = try await server.send(
                .POST, "/api/auth/local/register",
                json: encoding.body([
                    ("username", "이순신"), ("email", "sesacuser1@example.com"), ("password", Self.password),
                ]),
                contentType: encoding.contentType)
            #expect(registered.status == 200, "\(registered.text)")
            let user = try #require(registered.json["user"] as? [String: Any])
            #expect(user["username"] as? String == "이순신", "UTF-8 fields arrive as sent")
            #expect(user["email"] as? String == "sesacuser1@example.com")

            let login = try await server.send(
                .POST, "/api/auth/local",
                json: encoding.body([("identifier", "sesacuser1@example.com"), ("password", Self.password)]),
                contentType: encoding.contentType)
            #expect(login.status == 200, "\(login.text)")
            let jwt = try #require(login.json["jwt"] as? String)

            let changed = try await server.send(
                .POST, "/api/auth/change-password",
                json: encoding.body([
                    ("currentPassword", Self.password), ("password", Self.newPassword),
                    ("passwordConfirmation", Self.newPassword),
                ]),
                token: jwt, contentType: encoding.contentType)
            #expect(changed.status == 200, "\(changed.text)")
            let relogin = try await server.send(
                .POST, "/api/auth/local",
                json: encoding.body([("identifier", "sesacuser1@example.com"), ("password", Self.newPassword)]),
                contentType: encoding.contentType)
            #expect(relogin.status == 200, "the new password took")
        }
    }

    @Test("a missing or repeated field is the same error whichever way the body came")
    func sameErrors() async throws {
        try await LiveServer.with(Backends.sqlite) { server in
            for (fields, expected) in [
                ([("username", "이순신"), ("email", "sesacuser1@example.com")], #"the field "password" is missing"#),
                (
                    [
                        ("username", "이순신"), ("email", "a@example.com"), ("email", "b@example.com"),
                        ("password", Self.password),
                    ], #"the field "email" appears more than once"#
                ),
            ] {
                var messages: Set<String> = []
                for encoding in Encoding.allCases {
                    let reply = try await server.send(
                        .POST, "/api/auth/local/register", json: encoding.body(fields),
                        contentType: encoding.contentType)
                    #expect(reply.status == 400, "\(encoding): \(reply.text)")
                    let error = try #require(reply.json["error"] as? [String: Any])
                    #expect(error["name"] as? String == "ValidationError")
                    messages.insert(error["message"] as? String ?? "")
                }
                #expect(messages.count == 1, "one message for the three encodings: \(messages)")
                #expect(messages.first?.contains(expected) == true, "\(messages)")
            }
            let count = try await server.repository.userCount()
            #expect(count == 0, "nothing was created")
        }
    }

    @Test("forms that cannot be read are refused by name, never repaired")
    func unreadableForms() async throws {
        try await LiveServer.with(Backends.sqlite) { server in
            let boundary = Encoding.boundary
            let multipart = "multipart/form-data; boundary=\(boundary)"
            for (body, contentType, expected) in [
                (
                    "username=%E1%84&email=a%40example.com&password=x", Encoding.urlencoded.contentType,
                    #"the field "username" is not UTF-8 text"#
                ),
                (
                    "username=%zz&email=a%40example.com", Encoding.urlencoded.contentType,
                    #"the field "username" is not UTF-8 text"#
                ),
                ("user%zzname=x", Encoding.urlencoded.contentType, "not a valid form"),
                (
                    "--\(boundary)\r\nContent-Disposition: form-data; name=\"username\"\r\n\r\nx\r\n", multipart,
                    "not a valid form"
                ),
                (
                    "--\(boundary)\r\nContent-Disposition: form-data; name=\"username\"; filename=\"a.txt\"\r\n\r\nx\r\n--\(boundary)--\r\n",
                    multipart, #"the field "username" is not UTF-8 text"#
                ),
                ("--x\r\n", "multipart/form-data", "not a valid form"),
            ] {
                let reply = try await server.send(
                    .POST, "/api/auth/local/register", json: body, contentType: contentType)
                #expect(reply.status == 400, "\(body): \(reply.text)")
                let message = (reply.json["error"] as? [String: Any])?["message"] as? String ?? ""
                #expect(message.contains(expected), "\(body): \(message)")
            }
            let count = try await server.repository.userCount()
            #expect(count == 0)
        }
    }

    @Test("other media types: 415 naming the three the Strapi routes take; the native API stays JSON only")
    func mediaTypes() async throws {
        try await LiveServer.with(Backends.sqlite) { server in
            let strapi = try await server.send(
                .POST, "/api/auth/local", json: "identifier=a", contentType: "text/plain")
            #expect(strapi.status == 415)
            #expect(
                (strapi.json["error"] as? [String: Any])?["message"] as? String
                    == "The request body must be application/json, application/x-www-form-urlencoded or multipart/form-data."
            )
            let native = try await server.send(
                .POST, "/v1/login", json: "email=a%40example.com&password=x",
                contentType: Encoding.urlencoded.contentType)
            #expect(native.status == 415)
            #expect(native.text.contains("The request body must be application/json."))
        }
    }

    @Test("/_health answers 204 with Strapi's header, to GET and HEAD")
    func health() async throws {
        try await LiveServer.with(Backends.sqlite) { server in
            for method in [HTTPMethod.GET, .HEAD] {
                let reply = try await server.send(method, "/_health")
                #expect(reply.status == 204)
                #expect(reply.headers["strapi"].first == "You are so French!")
                #expect(reply.text.isEmpty)
            }
        }
    }

    @Test("multipart bodies: a quoted boundary, a preamble, an empty value and a closing line are read as sent")
    func multipartParser() {
        #expect(MultipartForm.boundary(inContentType: #"multipart/form-data; charset=utf-8; boundary="a b""#) == "a b")
        #expect(MultipartForm.boundary(inContentType: "multipart/form-data") == nil)
        let body = Array(
            "preamble\r\n--b\r\nContent-Disposition: form-data; name=\"empty\"\r\n\r\n\r\n--b\r\ncontent-disposition: form-data; name=x\r\nContent-Type: text/plain\r\n\r\nline\r\nnext\r\n--b--\r\nepilogue"
                .utf8)
        #expect(
            MultipartForm.parts(body, boundary: "b")
                == [
                    .init(name: "empty", isFile: false, value: []),
                    .init(name: "x", isFile: false, value: Array("line\r\nnext".utf8)),
                ])
        #expect(MultipartForm.parts(Array("--b\r\n\r\nx\r\n--b--".utf8), boundary: "b") == nil, "a part without a name")
        #expect(MultipartForm.parts(Array("no delimiter".utf8), boundary: "b") == nil)
    }
}
