extension CLIMessages {
    /// One line of `accounts keys list`.
    func signingKey(id: String, created: String, retired: String?, published: Bool) -> String {
        switch (retired, published) {
        case (nil, _): ko ? "\(id)  \(created)에 만듦, 지금 서명하는 키" : "\(id)  made \(created), signing now"
        case (let retired?, true):
            ko
                ? "\(id)  \(created)에 만듦, \(retired)에 물러남, 서명한 토큰이 만료될 때까지 공개"
                : "\(id)  made \(created), retired \(retired), published until its tokens expire"
        case (let retired?, false):
            ko ? "\(id)  \(created)에 만듦, \(retired)에 물러남" : "\(id)  made \(created), retired \(retired)"
        }
    }

    /// After `accounts keys rotate`.
    func rotated(to id: String, droppingOthers: Bool) -> String {
        switch (ko, droppingOthers) {
        case (true, false): "새 서명 키 \(id)로 바꿨습니다. 이전 키는 그 토큰이 만료될 때까지 공개됩니다."
        case (true, true): "새 서명 키 \(id)로 바꿨습니다. 이전 키는 지웠습니다: 그 키가 서명한 토큰은 이제 모두 거부됩니다."
        case (false, false):
            "Signing with the new key \(id). The previous key stays published until its tokens expire."
        case (false, true):
            "Signing with the new key \(id). The previous keys are gone: every token they signed is refused from now on."
        }
    }
}
