import AccountServerSettings
import Foundation

/// Who a request comes from, for the per-client limits and the monitoring routes: the socket's
/// peer, or — only when the peer is a trusted proxy — the address the proxy put last in
/// `X-Forwarded-For` (the one it saw; earlier entries are whatever the client claimed and are
/// never believed), when that is an IP address.
struct ClientAddress {
    /// Addresses or CIDR blocks of the proxies whose `X-Forwarded-For` is believed.
    let trustedProxies: [IPAddressRange]

    /// Whether `peer` is a proxy whose forwarded headers are believed.
    func isTrustedProxy(_ peer: String?) -> Bool {
        guard let peer, !trustedProxies.isEmpty else { return false }
        return trustedProxies.containsAddress(peer)
    }

    func resolve(peer: String?, forwardedFor: String?) -> String {
        let peer = peer ?? "unknown"
        guard isTrustedProxy(peer), let forwardedFor else { return peer }
        let hops = forwardedFor.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        // Walk back over proxies we trust: the first address that is not one is the client. An
        // entry that is not an address at all ("garbage", a name, a port glued on) cannot be a
        // client to count or limit: the peer is, as without the header.
        for hop in hops.reversed() where !hop.isEmpty && !trustedProxies.containsAddress(hop) {
            return IPAddressRange.isAddress(hop) ? hop : peer
        }
        return peer
    }
}
