import Testing
@testable import BridgeCore

/// Issue 23: `ActionKey` hashes as its names' hash made once, and `UTF8Key` as
/// its bytes in one run. Both must still agree with their `==`: an `ActionKey`
/// is equal as `String`s are (canonical equivalence: an action id written NFC
/// in the config and NFD in a press is one action, as before), a `UTF8Key` as
/// bytes are (NFC and NFD are two topics).
@Suite("Keys hash as they compare")
struct KeyHashingTests {
    static let composed = "caf\u{E9}"
    static let decomposed = "cafe\u{301}"

    @Test func actionKeysEqualUnderUnicodeAreOneKey() {
        let nfc = ActionKey(slug: "home", actionId: Self.composed)
        let nfd = ActionKey(slug: "home", actionId: Self.decomposed)
        #expect(nfc == nfd)
        #expect(nfc.hashValue == nfd.hashValue)
        #expect(Set([nfc, nfd]).count == 1)
        #expect([nfc: 1][nfd] == 1)
    }

    @Test func actionKeysOfOtherNamesAreOtherKeys() {
        let keys = [
            ActionKey(slug: "home", actionId: "lamp"), ActionKey(slug: "home", actionId: "lamp2"),
            ActionKey(slug: "home2", actionId: "lamp"), ActionKey(slug: "homel", actionId: "amp"),
            ActionKey(slug: "", actionId: "homelamp"), ActionKey(slug: "homelamp", actionId: ""),
        ]
        #expect(Set(keys).count == keys.count)
        var byKey: [ActionKey: Int] = [:]
        for (index, key) in keys.enumerated() { byKey[key] = index }
        for (index, key) in keys.enumerated() { #expect(byKey[ActionKey(slug: key.slug, actionId: key.actionId)] == index) }
    }

    @Test func utf8KeysAreTheirBytes() {
        let nfc = UTF8Key(Self.composed)
        let nfd = UTF8Key(Self.decomposed)
        #expect(nfc != nfd)
        #expect(Set([nfc, nfd, UTF8Key(Self.composed)]).count == 2)
        #expect([nfc: 1][UTF8Key("caf\u{E9}")] == 1)
        #expect([nfc: 1][nfd] == nil)
    }
}
