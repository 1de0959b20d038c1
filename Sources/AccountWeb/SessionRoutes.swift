import AccountCore
import AccountServer
import Hummingbird

extension AccountWebPages {
    /// "Where you are signed in": the member's sessions, each with its device, when it was
    /// opened and last used, and a button to sign it out; and one to sign out every other.
    func addSessionRoutes<Context: AccountRoutesContext>(to group: RouterGroup<Context>) {
        group.getWithHead("sessions") { request, context in
            let visit = visit(of: request)
            let notice = visit.text.notice(request.uri.queryParameters["notice"].map(String.init))
            return try await sessionsPage(visit, context, notice: notice)
        }
        group.post("sessions/revoke") { request, context in
            return try await posted(request) { form, visit in
                try await revoking(visit, context) {
                    try await service.sessions.revokeSession(token: visit.sessionToken, id: form["id"])
                    return "/sessions?notice=session_revoked"
                }
            }
        }
        group.post("sessions/revoke-others") { request, context in
            return try await posted(request) { _, visit in
                try await revoking(visit, context) {
                    try await service.sessions.revokeOtherSessions(token: visit.sessionToken)
                    return "/sessions?notice=other_sessions_revoked"
                }
            }
        }
    }

    /// Runs a revocation and goes where it says; a session already gone is said so on the
    /// list, and a visitor no longer signed in goes to the start screen.
    private func revoking(
        _ visit: WebVisit, _ context: some RequestContext, _ revoke: () async throws -> String
    ) async throws -> Response {
        do {
            return redirect(try await revoke())
        } catch AccountError.sessionNotFound {
            return redirect("/sessions?notice=session_not_found")
        } catch let error as AccountError where error == .notSignedIn || error == .sessionExpired {
            return response(for: Redirect(location: "/?notice=session_expired", clearsSession: true))
        } catch {
            return storeFailurePage(error, visit: visit, context: context)
        }
    }

    private func sessionsPage(
        _ visit: WebVisit, _ context: some RequestContext, notice: String?
    ) async throws -> Response {
        let sessions: [SessionSummary]
        do {
            sessions = try await service.sessions.list(token: visit.sessionToken)
        } catch let error as AccountError where error == .notSignedIn || error == .sessionExpired {
            let expired = error == .sessionExpired
            return response(for: Redirect(location: expired ? "/?notice=session_expired" : "/", clearsSession: true))
        } catch {
            return storeFailurePage(error, visit: visit, context: context)
        }
        let text = visit.text
        var values = visit.pageValues(title: text.sessionsTitle, path: "/sessions", notice: notice)
        values["sessions"] = sessions.map { session -> [String: Any] in
            [
                "id": session.id, "device": session.device.isEmpty ? text.unknownDevice : session.device,
                "current": session.current, "currentLabel": text.thisDevice,
                "created": text.signedInAt(session.createdAt.minuteUTC), "createdISO": session.createdAt.iso8601,
                "lastUsed": text.lastUsedAt(session.lastUsedAt.minuteUTC),
                "lastUsedISO": session.lastUsedAt.iso8601, "revoke": text.signOutSession,
            ]
        }
        if sessions.contains(where: { !$0.current }) { values["revokeOthers"] = text.signOutOthers }
        values["backToWelcome"] = text.backToWelcome
        return page("sessions", values, visit: visit)
    }
}
