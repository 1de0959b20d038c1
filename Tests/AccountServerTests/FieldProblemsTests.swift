import AccountBackendKit
import AccountCore
import BackendTestSupport
import NIOHTTP1
import StandardBackends
import Testing

/// A sign-up or new password that breaks rules is answered with every rule each field breaks,
/// so that an app's form shows them all at once under their fields, in both API styles; the
/// answer's own code and message stay the first rule's, and nothing is written.
@Suite("Every broken rule of a form, listed by field")
struct FieldProblemsTests {
    static let password = "Tangerine-Kayak-42"

    /// `(field, code)` of each listed problem, in order.
    static func listed(_ problems: Any?, field key: String = "field") -> [String] {
        ((problems as? [[String: Any]]) ?? []).map { problem in
            let field = key == "path" ? (problem["path"] as? [String])?.joined(separator: ".") : problem[key] as? String
            return "\(field ?? "?") \(problem["code"] as? String ?? "?")"
        }
    }

    @Test(
        "native sign-up lists each field's rules; the first is the answer's code and message",
        arguments: BackendRegistry.embedded.descriptors)
    func nativeSignUp(_ backend: any BackendDescriptor) async throws {
        try await LiveServer.with(backend) { server in
            let answer = try await server.send(
                .POST, "/v1/signup", json: #"{"email":"Ab@x","nickname":"a","password":"x","confirmation":"y"}"#)
            #expect(answer.status == 400)
            let problems = try #require(answer.json["problems"] as? [[String: Any]])
            #expect(
                Self.listed(problems) == [
                    "email invalid_email", "email invalid_email", "email invalid_email", "email invalid_email",
                    "nickname invalid_nickname", "password invalid_password", "password weak_password",
                    "confirmation password_mismatch",
                ])
            #expect(answer.json["code"] as? String == problems.first?["code"] as? String)
            #expect(answer.json["message"] as? String == problems.first?["message"] as? String)
            #expect(
                problems.first?["message"] as? String
                    == "The part before '@' must not contain uppercase letters; use lowercase.")
            #expect(try await server.repository.userCount() == 0, "nothing was written")
        }
    }

    @Test("a confirmation left out is not listed, and a valid field is not either; Korean messages in Korean")
    func unconfirmedKorean() async throws {
        try await LiveServer.with(Backends.sqlite) { server in
            let answer = try await server.send(
                .POST, "/v1/signup", json: #"{"email":"leesoon7@example.com","nickname":"이순신","password":""}"#,
                headers: [("Accept-Language", "ko")])
            #expect(answer.status == 400)
            #expect(Self.listed(answer.json["problems"]) == ["password invalid_password", "password weak_password"])
            let messages = (answer.json["problems"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
            #expect(messages.first == "비밀번호는 8자 이상이어야 합니다.", "\(messages)")
        }
    }

    @Test("an error that is not a field's rule carries no list")
    func otherErrors() async throws {
        try await LiveServer.with(Backends.sqlite) { server in
            let body = #"{"email":"leesoon7@example.com","nickname":"이순신","password":"\#(Self.password)"}"#
            #expect(try await server.send(.POST, "/v1/signup", json: body).status == 201)
            let taken = try await server.send(.POST, "/v1/signup", json: body)
            #expect(taken.status == 409)
            #expect(taken.json["problems"] == nil)
            let strapiTaken = try await server.send(
                .POST, "/api/auth/local/register",
                json: #"{"username":"이순신","email":"leesoon7@example.com","password":"\#(Self.password)"}"#)
            let details = (strapiTaken.json["error"] as? [String: Any])?["details"] as? [String: Any]
            #expect(details?["code"] as? String == "email_taken")
            #expect(details?["errors"] == nil)
        }
    }

    @Test("Strapi register lists them as Strapi does: details.errors with path, message and name")
    func strapiRegister() async throws {
        try await LiveServer.with(Backends.sqlite) { server in
            let answer = try await server.send(
                .POST, "/api/auth/local/register",
                json: #"{"username":"a","email":"leesoon7@example.com","password":"leesoon7"}"#)
            #expect(answer.status == 400)
            let error = try #require(answer.json["error"] as? [String: Any])
            let details = try #require(error["details"] as? [String: Any])
            let errors = try #require(details["errors"] as? [[String: Any]])
            #expect(
                Self.listed(errors, field: "path") == [
                    "username invalid_nickname", "password invalid_password", "password weak_password",
                ])
            #expect(errors.allSatisfy { $0["name"] as? String == "ValidationError" })
            #expect(error["message"] as? String == errors.first?["message"] as? String)
            #expect(details["code"] as? String == "invalid_nickname")
            #expect(try await server.repository.userCount() == 0, "nothing was written")
        }
    }

    @Test(
        "a new password's rules are listed on both change-password routes, and the password is unchanged",
        arguments: BackendRegistry.embedded.descriptors)
    func newPassword(_ backend: any BackendDescriptor) async throws {
        try await LiveServer.with(backend) { server in
            let signUp = try await server.send(
                .POST, "/v1/signup",
                json: #"{"email":"leesoon7@example.com","nickname":"이순신","password":"\#(Self.password)"}"#)
            let token = try #require(signUp.json["token"] as? String)
            let native = try await server.send(
                .POST, "/v1/password",
                json: #"{"current_password":"\#(Self.password)","new_password":"leesoon7","confirmation":"other"}"#,
                token: token)
            #expect(native.status == 400)
            #expect(
                Self.listed(native.json["problems"]) == [
                    "new_password invalid_password", "new_password weak_password", "confirmation password_mismatch",
                ])
            let strapi = try await server.send(
                .POST, "/api/auth/change-password",
                json: #"""
                    {"currentPassword":"\#(Self.password)","password":"\#(Self.password)","passwordConfirmation":"x"}
                    """#,
                token: token)
            #expect(strapi.status == 400)
            let details = (strapi.json["error"] as? [String: Any])?["details"] as? [String: Any]
            #expect(
                Self.listed(details?["errors"], field: "path") == [
                    "password invalid_password", "passwordConfirmation password_mismatch",
                ])
            let login = try await server.send(
                .POST, "/v1/login", json: #"{"email":"leesoon7@example.com","password":"\#(Self.password)"}"#)
            #expect(login.status == 200, "the old password still logs in")
        }
    }
}
