import EnvKeys
import Testing

@testable import D2SHTML

/// An edit form's controls, byte for byte: which control a text gets (a line break or more
/// than 80 characters make a textarea, CRLF included), and every value escaped as a form
/// value (format characters kept) or as page text (a to-one's title, shown escaped).
@Suite struct FormControlTests {
  func html(
    _ kind: FieldWidget.Kind, _ text: String, isNull: Bool = false, current: String = ""
  ) -> String {
    var bytes = HTMLBytes(capacity: 16)
    FormControl.append(
      kind, attributes: Array(#"id="f-k" name="k""#.utf8), key: "k", text: text, isNull: isNull,
      current: current, to: &bytes)
    return bytes.string
  }

  @Test func textGetsAnInputUntilItIsLongOrHasALineBreak() {
    #expect(
      html(.text, "a \"b\" <c>") == #"<input id="f-k" name="k" value="a &quot;b&quot; &lt;c&gt;">"#)
    #expect(html(.text, String(repeating: "z", count: 80)).hasPrefix("<input "))
    #expect(html(.text, String(repeating: "z", count: 81)).hasPrefix("<textarea "))
    // 80 characters in 81 bytes: still short.
    #expect(html(.text, String(repeating: "z", count: 79) + "é").hasPrefix("<input "))
    #expect(
      html(.text, "a\r\nb") == "<textarea id=\"f-k\" name=\"k\" rows=\"4\">\na\r\nb</textarea>")
    #expect(html(.text, "a\nb").hasPrefix("<textarea "))
    #expect(html(.text, "a\rb").hasPrefix("<input "))
    // A form value keeps a format character as it is; a title shows it escaped.
    #expect(html(.text, "x\u{202E}y") == "<input id=\"f-k\" name=\"k\" value=\"x\u{202E}y\">")
    #expect(
      html(.toOne(options: nil, choose: "/F/1/-/choose/k"), "7", current: "x\u{202E}y")
        == #"<input id="f-k" name="k" value="7"> <span class="current">x\u{202E}y</span> <a class="choose" href="/F/1/-/choose/k">Choose…</a>"#
    )
  }

  @Test func numbersDatesAndCheckboxes() {
    #expect(
      html(.number(step: "0.01"), "-3.50")
        == #"<input id="f-k" name="k" type="number" step="0.01" value="-3.50">"#)
    #expect(
      html(.number(step: "1"), "1e3")
        == #"<input id="f-k" name="k" inputmode="decimal" value="1e3">"#)
    #expect(
      html(.date, "2024-02-29") == #"<input id="f-k" name="k" type="date" value="2024-02-29">"#)
    #expect(html(.date, "yesterday") == #"<input id="f-k" name="k" value="yesterday">"#)
    #expect(
      html(.dateTime, "").hasPrefix(
        #"<input id="f-k" name="k" type="datetime-local" step="1" value=""#))
    #expect(
      html(.checkbox, "true")
        == #"<input id="f-k" name="k" type="checkbox" value="true" checked><input type="hidden" name="_bool.k" value="1">"#
    )
  }

  @Test func selectsKeepTheStoredValueAndOfferNothingWhenNull() {
    let options = [FieldWidget.Option(value: "1", label: "<One>")]
    #expect(
      html(.toOne(options: options, choose: "/c"), "1")
        == #"<select id="f-k" name="k"><option value="1" selected>&lt;One&gt;</option></select> <a class="choose" href="/c">Choose…</a>"#
    )
    #expect(
      html(.choice(["G", "PG"]), "X", isNull: true)
        == #"<select id="f-k" name="k"><option value=""></option><option value="X">X</option><option value="G">G</option><option value="PG">PG</option></select>"#
    )
  }
}
