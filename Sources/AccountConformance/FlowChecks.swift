import AccountCore

/// What the account flows keep beside users and sessions: refresh families, single-use codes,
/// the outbox of mail, and identities at outside providers.
enum FlowChecks {
    static let all: [ConformanceCheck] = [
        ConformanceCheck("a refresh replaces a session within its family, and the old token is kept until it expires") {
            context in
            let store = try await context.open()
            let (user, first, renewed) = try await signedUpWithRenewal(store)
            let at = Timestamp(millisecondsSince1970: 1_700_000_200_000)
            try context.expect(
                try await store.rotateSession(
                    tokenHash: first.tokenHash, to: renewed, ifPasswordHashIs: Fixtures.passwordHash + "x", at: at)
                    == false, "a rotation under another password hash happened")
            try context.expect(try await store.session(tokenHash: first.tokenHash) == first, "the refused one changed")
            try context.expect(
                try await store.rotateSession(
                    tokenHash: first.tokenHash, to: renewed, ifPasswordHashIs: Fixtures.passwordHash, at: at),
                "the rotation was refused")
            try context.expect(try await store.session(tokenHash: first.tokenHash) == nil, "the old token still opens")
            try context.expect(try await store.session(tokenHash: renewed.tokenHash) == renewed, "the new one differs")
            let expected = RotatedToken(
                tokenHash: first.tokenHash, userID: user.id, family: first.family, rotatedAt: at,
                expiresAt: first.expiresAt)
            try context.expect(try await store.rotatedToken(tokenHash: first.tokenHash) == expected, "no rotated token")
            try context.expect(
                try await store.rotateSession(
                    tokenHash: first.tokenHash, to: Fixtures.session(3, user: user.id),
                    ifPasswordHashIs: Fixtures.passwordHash, at: at) == false, "a rotated token was rotated again")
            // Another family of the same user, and another user's session a rotation may not take.
            let other = Fixtures.session(4, user: user.id)
            try context.expect(
                try await store.createSession(other, ifPasswordHashIs: Fixtures.passwordHash), "a second login refused")
            let stranger = Fixtures.user(2)
            try await store.createUser(stranger, initialSession: Fixtures.session(5, user: stranger.id))
            var clash = Fixtures.session(5, user: user.id)
            clash.family = first.family
            try await context.expectError("store_io", "a rotation to a stored token hash", naming: user.id) {
                try await store.rotateSession(
                    tokenHash: renewed.tokenHash, to: clash, ifPasswordHashIs: Fixtures.passwordHash, at: at)
            }
            try context.expect(
                try await store.session(tokenHash: renewed.tokenHash) == renewed, "the refusal changed it")
            try context.expect(try await store.revokeFamily(first.family, userID: user.id) == 1, "not one session went")
            try context.expect(try await store.sessions(userID: user.id) == [other], "another family went too")
            try context.expect(
                try await store.sessions(userID: stranger.id).count == 1, "another user's session went")
            try await store.close()
            let reopened = try await context.open()
            try context.expect(
                try await reopened.rotatedToken(tokenHash: first.tokenHash) == expected, "after reopening")
            try context.expect(try await reopened.deleteUser(id: user.id), "no user to withdraw")
            try context.expect(
                try await reopened.rotatedToken(tokenHash: first.tokenHash) == nil, "a withdrawn user's token stays")
            try context.expect(try await reopened.integrityCheck() == ["ok"], "the store is inconsistent")
            try await reopened.close()
        },
        ConformanceCheck(
            "a code replaces the user's code of its purpose, is taken once, and goes with the password or the user"
        ) {
            context in
            let store = try await context.open()
            let user = Fixtures.user(1)
            try await store.createUser(user, initialSession: nil)
            let made = Timestamp(millisecondsSince1970: 1_700_000_300_000)
            func code(_ n: Int, _ purpose: OneTimeCode.Purpose, of owner: UserID = user.id) -> OneTimeCode {
                OneTimeCode(
                    codeHash: Fixtures.tokenHash(100 + n), userID: owner, purpose: purpose, createdAt: made,
                    expiresAt: made.adding(seconds: 3_600))
            }
            try context.expect(
                try await store.replaceCode(code(1, .passwordReset, of: Fixtures.id(99))) == false,
                "a code of a missing user was stored")
            try context.expect(try await store.replaceCode(code(1, .passwordReset)), "the code was refused")
            try context.expect(
                try await store.code(hash: code(1, .passwordReset).codeHash) == code(1, .passwordReset), "")
            try context.expect(try await store.replaceCode(code(2, .passwordReset)), "the second code was refused")
            try context.expect(try await store.code(hash: code(1, .passwordReset).codeHash) == nil, "the first stays")
            try context.expect(try await store.replaceCode(code(3, .emailVerification)), "another purpose refused")
            try context.expect(try await store.code(hash: code(2, .passwordReset).codeHash) != nil, "it replaced both")
            let stranger = Fixtures.user(2)
            try await store.createUser(stranger, initialSession: nil)
            try await context.expectError("store_io", "a stored code hash for another user") {
                try await store.replaceCode(code(2, .passwordReset, of: stranger.id))
            }
            // Eight takes at once: one gets it.
            let hash = code(2, .passwordReset).codeHash
            let taken = try await withThrowingTaskGroup(of: OneTimeCode?.self) { group in
                for _ in 0..<8 { group.addTask { try await store.takeCode(hash: hash) } }
                var found: [OneTimeCode] = []
                for try await one in group { if let one { found.append(one) } }
                return found
            }
            try context.expect(taken == [code(2, .passwordReset)], "\(taken.count) takes got the code")
            try context.expect(try await store.code(hash: hash) == nil, "a taken code stays")
            try context.expect(try await store.replaceCode(code(4, .passwordReset)), "a new code refused")
            try context.expect(
                try await store.updatePassword(
                    userID: user.id, passwordHash: Fixtures.passwordHash + "2", changedAt: made, revoking: .none,
                    ifPasswordHashIs: nil), "the change was refused")
            try context.expect(
                try await store.code(hash: code(4, .passwordReset).codeHash) == nil,
                "a reset code outlived a password change")
            try context.expect(
                try await store.code(hash: code(3, .emailVerification).codeHash) != nil,
                "a password change took the email's code")
            try await store.close()
            let reopened = try await context.open()
            try context.expect(
                try await reopened.code(hash: code(3, .emailVerification).codeHash) == code(3, .emailVerification),
                "after reopening")
            try context.expect(try await reopened.deleteUser(id: user.id), "no user to withdraw")
            try context.expect(
                try await reopened.code(hash: code(3, .emailVerification).codeHash) == nil, "a withdrawn user's code")
            try context.expect(try await reopened.integrityCheck() == ["ok"], "the store is inconsistent")
            try await reopened.close()
        },
        ConformanceCheck("rotated tokens and codes are purged once expired, the live ones and every session kept") {
            context in
            let store = try await context.open()
            let (user, first, renewed) = try await signedUpWithRenewal(store)
            try context.expect(
                try await store.rotateSession(
                    tokenHash: first.tokenHash, to: renewed, ifPasswordHashIs: Fixtures.passwordHash,
                    at: Timestamp(millisecondsSince1970: 1_700_000_200_000)), "the rotation was refused")
            let made = Timestamp(millisecondsSince1970: 1_700_000_300_000)
            let expiring = OneTimeCode(
                codeHash: Fixtures.tokenHash(101), userID: user.id, purpose: .passwordReset, createdAt: made,
                expiresAt: made.adding(seconds: 60))
            let lasting = OneTimeCode(
                codeHash: Fixtures.tokenHash(102), userID: user.id, purpose: .emailVerification, createdAt: made,
                expiresAt: first.expiresAt.adding(seconds: 3_600))
            try context.expect(try await store.replaceCode(expiring), "a code was refused")
            try context.expect(try await store.replaceCode(lasting), "a code was refused")
            try context.expect(try await store.purgeExpiredFlowRecords(at: made) == 0, "a live record was purged")
            try context.expect(
                try await store.purgeExpiredFlowRecords(at: expiring.expiresAt) == 1, "not the one expired code went")
            try context.expect(try await store.code(hash: expiring.codeHash) == nil, "the expired code stays")
            try context.expect(try await store.code(hash: lasting.codeHash) == lasting, "the live code went")
            try context.expect(
                try await store.rotatedToken(tokenHash: first.tokenHash) != nil, "the live rotated token went")
            try context.expect(
                try await store.purgeExpiredFlowRecords(at: first.expiresAt) == 1, "not the one expired token went")
            try context.expect(
                try await store.rotatedToken(tokenHash: first.tokenHash) == nil, "the expired rotated token stays")
            try context.expect(
                try await store.sessions(userID: user.id) == [renewed], "a purge touched the sessions")
            try await store.close()
            let reopened = try await context.open()
            try context.expect(
                try await reopened.rotatedToken(tokenHash: first.tokenHash) == nil, "the purge was not kept")
            try context.expect(try await reopened.code(hash: lasting.codeHash) == lasting, "after reopening")
            try context.expect(try await reopened.integrityCheck() == ["ok"], "the store is inconsistent")
            try await reopened.close()
        },
        ConformanceCheck(
            "mail waits in the outbox until sent: due in order, leased by one sender, rescheduled, kept across reopening"
        ) {
            context in
            let store = try await context.open()
            let base = Timestamp(millisecondsSince1970: 1_700_000_400_000)
            func at(_ seconds: Int64) -> Timestamp { base.adding(seconds: seconds) }
            func mail(_ n: Int, due: Int64) -> OutboxMail {
                OutboxMail(
                    id: String(repeating: "0", count: 31) + String(n), kind: "password_reset",
                    recipient: "user\(n)@example.com", language: n == 2 ? "ko" : "en",
                    payload: "sealed ✓ \"quoted\" \\ \n \(n)", createdAt: at(Int64(n)), notBefore: at(due))
            }
            let mails = [mail(1, due: 10), mail(2, due: 20), mail(3, due: 30)]
            for one in mails.reversed() { try await store.enqueueMail(one) }
            try await context.expectError("store_io", "a second mail with a stored id") {
                try await store.enqueueMail(mail(1, due: 5))
            }
            try context.expect(try await store.dueMail(at: at(20), limit: 10) == Array(mails.prefix(2)), "due mail")
            try context.expect(try await store.dueMail(at: at(30), limit: 1) == [mails[0]], "the limit")
            // Eight senders at once: one leases it.
            let leases = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<8 {
                    group.addTask { try await store.leaseMail(id: mails[0].id, from: at(10), until: at(100)) }
                }
                var won = 0
                for try await lease in group where lease { won += 1 }
                return won
            }
            try context.expect(leases == 1, "\(leases) senders leased one mail")
            try context.expect(try await store.dueMail(at: at(20), limit: 10) == [mails[1]], "a leased mail is due")
            try context.expect(
                try await store.rescheduleMail(id: mails[1].id, attempts: 1, notBefore: at(50), lastError: "421 busy"),
                "the reschedule was refused")
            try context.expect(
                try await store.rescheduleMail(id: "missing", attempts: 1, notBefore: at(50), lastError: nil) == false,
                "a missing mail was rescheduled")
            let summary = try await store.outboxSummary()
            try context.expect(
                summary == OutboxSummary(queued: 3, failing: 1, oldest: at(1)), "the summary is \(summary)")
            try context.expect(try await store.deleteMail(id: mails[2].id), "the mail was not there")
            try context.expect(try await store.deleteMail(id: mails[2].id) == false, "a mail was deleted twice")
            try await store.close()
            let reopened = try await context.open()
            var rescheduled = mails[1]
            (rescheduled.attempts, rescheduled.notBefore, rescheduled.lastError) = (1, at(50), "421 busy")
            var leased = mails[0]
            leased.notBefore = at(100)
            try context.expect(
                try await reopened.dueMail(at: at(1_000), limit: 10) == [rescheduled, leased], "after reopening")
            try context.expect(try await reopened.integrityCheck() == ["ok"], "the store is inconsistent")
            try await reopened.close()
        },
        ConformanceCheck("an outside identity links to one account only, lists, unlinks, and goes with the user") {
            context in
            let store = try await context.open()
            let user = Fixtures.user(1)
            let other = Fixtures.user(2)
            try await store.createUser(user, initialSession: nil)
            try await store.createUser(other, initialSession: nil)
            let at = Timestamp(millisecondsSince1970: 1_700_000_500_000)
            func identity(_ provider: String, _ subject: String, _ owner: UserID = user.id) -> ProviderIdentity {
                ProviderIdentity(
                    provider: provider, subject: subject, userID: owner, email: "me@example.com", linkedAt: at)
            }
            try context.expect(
                try await store.linkIdentity(identity("github", "1", Fixtures.id(99))) == false,
                "an identity of a missing user was linked")
            for (provider, subject) in [("github", "583231"), ("corp", "sub-é-\u{1}"), ("github", "42")] {
                try context.expect(try await store.linkIdentity(identity(provider, subject)), "\(provider) refused")
            }
            try await context.expectError("identity_taken", "an identity linked to another user") {
                try await store.linkIdentity(identity("github", "42", other.id))
            }
            try await context.expectError("identity_taken", "an identity linked twice") {
                try await store.linkIdentity(identity("github", "42"))
            }
            try context.expect(
                try await store.identity(provider: "github", subject: "42") == identity("github", "42"), "by subject")
            try context.expect(
                try await store.identities(userID: user.id) == [
                    identity("corp", "sub-é-\u{1}"), identity("github", "42"), identity("github", "583231"),
                ], "the user's identities")
            try context.expect(try await store.identities(userID: other.id).isEmpty, "the other user has some")
            try context.expect(
                try await store.unlinkIdentity(provider: "github", subject: "42", userID: other.id) == false,
                "another user unlinked it")
            try context.expect(
                try await store.unlinkIdentity(provider: "github", subject: "42", userID: user.id), "unlink refused")
            try context.expect(try await store.linkIdentity(identity("github", "42", other.id)), "a freed one refused")
            try await store.close()
            let reopened = try await context.open()
            try context.expect(try await reopened.identities(userID: user.id).count == 2, "after reopening")
            try context.expect(try await reopened.deleteUser(id: user.id), "no user to withdraw")
            try context.expect(
                try await reopened.identity(provider: "github", subject: "583231") == nil, "a withdrawn user's identity"
            )
            try context.expect(try await reopened.integrityCheck() == ["ok"], "the store is inconsistent")
            try await reopened.close()
        },
    ]

    /// A user signed up with session 1, and session 2 of the same family to renew it into (not
    /// stored yet).
    private static func signedUpWithRenewal(
        _ store: any UserRepository
    ) async throws -> (user: UserRecord, first: SessionRecord, renewed: SessionRecord) {
        let user = Fixtures.user(1)
        let first = Fixtures.session(1, user: user.id)
        try await store.createUser(user, initialSession: first)
        var renewed = Fixtures.session(2, user: user.id)
        renewed.family = first.family
        return (user, first, renewed)
    }
}
