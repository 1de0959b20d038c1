/// The version `accounts --version` prints: a release's number, or for any other build the next
/// release's number marked `-dev` with the commit it was built from (`0.3.0-dev+1a2b3c4d5e6f`),
/// so that a development build is never taken for the release whose changes it lacks or has.
public enum AccountsVersion {
    /// The release this source tree is, or is becoming.
    public static let release = "0.3.0"
    /// `nil` in a release's source; `"dev"` between releases. Making a release sets it to
    /// `nil` (and the CHANGELOG's "Unreleased" heading to the version), and the next commit
    /// puts it back with the next number.
    public static let prerelease: String? = "dev"

    /// What `--version` prints.
    public static var current: String {
        guard let prerelease else { return release }
        let commit = BuildCommit.hash
        return release + "-" + prerelease + (commit.isEmpty ? "" : "+" + commit)
    }
}
