import Components
import D2SModel
import EnvKeys
import Testing

@testable import D2SHTML

/// A list's rows written as bytes (`ListRowHTML`) are exactly the HTML the renderer's string
/// path wrote: links to the row's object with every kind of key, to-one links, web and mail
/// addresses, markup, control and format characters escaped, styles around the cell's link.
@Suite struct ListRowHTMLTests {
  let columns = [
    TableColumn(key: "number", label: "Number", component: "DisplayString"),
    TableColumn(key: "amount", label: "Amount", component: "DisplayNumber", rightAligned: true),
    TableColumn(key: "vault", label: "Vault", component: "DisplayToOne"),
    TableColumn(key: "homepage", label: "Homepage", component: "DisplayString"),
  ]

  func html(_ row: TableRow, entity: String? = "Invoice", suffix: String = "") -> String {
    var writer = ListRowHTML(
      columns: columns, entity: entity, rowSuffix: suffix,
      destinations: [nil, nil, "Vault & Co", nil])
    return String(decoding: writer.line(row), as: UTF8.self)
  }

  func row(_ key: [DatabaseValue], _ cells: [ShownValue]) -> TableRow {
    TableRow(key: key, cells: cells)
  }

  @Test func keysOfEveryKindArePercentEncodedPathSegments() {
    let cells = [
      ShownValue(.string("INV/2024"), text: "INV/2024"), ShownValue(.int(10), text: "10"),
      ShownValue(.null, text: ""), ShownValue(.null, text: ""),
    ]
    #expect(
      html(row([.string("INV/2024, 100%")], cells), suffix: "?from=a&b")
        == "<tr><td><a href=\"/Invoice/INV%2F2024%2C%20100%25?from=a&amp;b\">INV/2024</a></td>"
        + "<td class=\"num\">10</td><td></td><td></td></tr>\n")
    for (key, path) in [
      ([DatabaseValue.int(0)], "0"), ([.int(7)], "7"), ([.int(1_234_567)], "1234567"),
      ([.int(-42)], "-42"), ([.int(Int.max)], "\(Int.max)"), ([.int(Int.min)], "\(Int.min)"),
      ([.int(3), .string("a b")], "3,a%20b"), ([.bool(true)], "true"),
    ] {
      #expect(html(row(key, cells)).hasPrefix("<tr><td><a href=\"/Invoice/\(path)\">"), "\(key)")
    }
  }

  @Test func aRowWithoutAWholeKeyIsNoLink() {
    let cells = [
      ShownValue(.string("x"), text: "x"), ShownValue(.null, text: ""),
      ShownValue(.null, text: ""), ShownValue(.null, text: ""),
    ]
    for key in [[], [DatabaseValue.null], [.int(1), .null]] {
      #expect(html(row(key, cells)).hasPrefix("<tr><td>x</td>"), "\(key)")
    }
    #expect(html(row([.int(1)], cells), entity: nil).hasPrefix("<tr><td>x</td>"))
  }

  @Test func anEmptyFirstCellLinksAsOpen() {
    let cells = [
      ShownValue(.string(""), text: ""), ShownValue(.null, text: ""),
      ShownValue(.null, text: ""), ShownValue(.null, text: ""),
    ]
    #expect(html(row([.int(5)], cells)).hasPrefix("<tr><td><a href=\"/Invoice/5\">(open)</a>"))
  }

  @Test func cellsAreEscapedAndLinkedAsTheStringPathDid() {
    var bold = TextStyle()
    bold.bold = true
    let cells = [
      ShownValue(.string("<b>\u{202E}x\u{0}"), text: "<b>\u{202E}x\u{0}", style: bold),
      ShownValue(.decimal(12.5), text: "12.50", style: TextStyle()),
      ShownValue(.int(1), text: "the \"crown\" & 'jewels'", style: bold),
      ShownValue(.string("https://a.example/?q=1&r=\"2\""), text: "https://a.example/?q=1&r=\"2\""),
    ]
    #expect(
      html(row([.int(1)], cells))
        == "<tr><td><span class=\"s-bold\"><a href=\"/Invoice/1\">&lt;b&gt;\\u{202E}x\\x00</a>"
        + "</span></td><td class=\"num\">12.50</td>"
        + "<td><span class=\"s-bold\"><a href=\"/Vault%20%26%20Co/1\">the &quot;crown&quot; &amp; "
        + "&#39;jewels&#39;</a></span></td>"
        + "<td><a href=\"https://a.example/?q=1&amp;r=&quot;2&quot;\" "
        + "rel=\"nofollow noopener noreferrer\">https://a.example/?q=1&amp;r=&quot;2&quot;</a>"
        + "</td></tr>\n")
    // Script is never a link; a formatted address (its text not the value) is only text.
    let script = [
      ShownValue(.int(1), text: "1"), ShownValue(.null, text: ""), ShownValue(.null, text: "none"),
      ShownValue(.string("javascript:alert(1)"), text: "javascript:alert(1)"),
    ]
    #expect(
      html(row([.int(1)], script)).hasSuffix("<td>none</td><td>javascript:alert(1)</td></tr>\n"))
    let formatted = [
      ShownValue(.int(1), text: "1"), ShownValue(.null, text: ""), ShownValue(.null, text: ""),
      ShownValue(.string("mailto:ann@example.com"), text: "Ann"),
    ]
    #expect(html(row([.int(1)], formatted)).hasSuffix("<td>Ann</td></tr>\n"))
  }

  @Test func aColumnsStyleMayChangeFromRowToRow() {
    var red = TextStyle()
    red.color = .red
    var writer = ListRowHTML(
      columns: [columns[1]], entity: nil, rowSuffix: "", destinations: [nil])
    let styles: [TextStyle?] = [red, nil, TextStyle(), red]
    let lines = styles.map { style in
      String(
        decoding: writer.line(
          TableRow(key: [], cells: [ShownValue(.int(1), text: "1", style: style)])),
        as: UTF8.self)
    }
    #expect(
      lines == [
        "<tr><td class=\"num\"><span class=\"s-red\">1</span></td></tr>\n",
        "<tr><td class=\"num\">1</td></tr>\n", "<tr><td class=\"num\">1</td></tr>\n",
        "<tr><td class=\"num\"><span class=\"s-red\">1</span></td></tr>\n",
      ])
  }

  /// The string path the bytes replaced, kept here as the oracle (the renderer's values are
  /// now written by `ListRowHTML.appendValue` too).
  func stringValue(_ shown: ShownValue, destination: String?) -> String {
    let text = HTML.escape(shown.text)
    if let destination, !shown.value.isNull,
      let path = WebLinks.objectPath(destination, key: [shown.value])
    {
      return "<a href=\"\(HTML.escape(path))\">\(text)</a>"
    }
    if case .string(let raw) = shown.value, raw == shown.text, HTML.isLinkable(raw) {
      return "<a href=\"\(HTML.escape(raw))\" rel=\"nofollow noopener noreferrer\">\(text)</a>"
    }
    return text
  }

  /// The old string path as the oracle: the first cell's link (`objectPath` plus the suffix,
  /// escaped), the others as `stringValue` writes them, each in its style's span. Every
  /// combination of awkward keys, texts, destinations and styles must match, and so must the
  /// renderer's own `Writer.value(_:destination:)`.
  @Test func everyCellIsWhatTheStringPathWrote() {
    let writer = HTMLRenderer.Writer(
      links: WebLinks(databaseName: "d", model: Model(entities: [])), output: StringOutput())
    var bold = TextStyle()
    bold.bold = true
    bold.color = .green
    let values: [DatabaseValue] = [
      .int(0), .int(-7), .int(Int.min), .string("a/b,c%d e"), .string("\u{FEFF}x🎬<"),
      .verbatim("007"), .decimal(12.5), .bool(false), .string(""), .null,
      .string("https://x.example/?a=1&b=2"),
    ]
    let texts = ["", "plain", "<b>\u{202E}&'\"", "🎬 \u{0}", "https://x.example/?a=1&b=2"]
    let suffixes = ["", "?from=/Film%3Fq&x=\"ü\""]
    var compared = 0
    for suffix in suffixes {
      for destination in [nil, "Vault & Co", "Ünïcode"] {
        var rowWriter = ListRowHTML(
          columns: [columns[0], columns[1]], entity: "Invoice/X", rowSuffix: suffix,
          destinations: [nil, destination])
        for key in values.map({ [$0] }) + [[.int(1), .string("b/c")], []] {
          for value in values {
            for text in texts {
              for style in [nil, TextStyle(), bold] {
                let first = ShownValue(value, text: text, style: style)
                let second = ShownValue(value, text: text, style: style)
                let got = String(
                  decoding: rowWriter.line(TableRow(key: key, cells: [first, second])),
                  as: UTF8.self)
                func styled(_ html: String) -> String {
                  style.map { HTML.styled(html, $0) } ?? html
                }
                let firstCell =
                  WebLinks.objectPath("Invoice/X", key: key).map {
                    "<a href=\"" + HTML.escape($0 + suffix) + "\">"
                      + HTML.escape(text.isEmpty ? "(open)" : text) + "</a>"
                  } ?? stringValue(first, destination: nil)
                let expected =
                  "<tr><td>" + styled(firstCell) + "</td><td class=\"num\">"
                  + styled(stringValue(second, destination: destination)) + "</td></tr>\n"
                #expect(got == expected)
                #expect(
                  writer.value(second, destination: destination)
                    == stringValue(second, destination: destination))
                compared += 1
              }
            }
          }
        }
      }
    }
    #expect(compared == 2 * 3 * 13 * 11 * 5 * 3)
  }

  @Test func aRowOfNoCellsOrMoreCellsThanColumnsIsWholeMarkup() {
    #expect(html(row([.int(1)], [])) == "<tr></tr>\n")
    let cells = (1...5).map { ShownValue(.int($0), text: "\($0)") }
    #expect(
      html(row([.int(1)], cells))
        == "<tr><td><a href=\"/Invoice/1\">1</a></td><td class=\"num\">2</td>"
        + "<td><a href=\"/Vault%20%26%20Co/3\">3</a></td><td>4</td><td>5</td></tr>\n")
  }

  @Test func rowsAppendedTogetherAreEachRowsLineInTurn() {
    var writer = ListRowHTML(
      columns: columns, entity: "Invoice", rowSuffix: "",
      destinations: [nil, nil, "Vault & Co", nil])
    var lines: [UInt8] = []
    var expected: [UInt8] = []
    for number in 1...300 {
      let cells = (0..<4).map { ShownValue(.int(number * 10 + $0), text: "\(number)<\($0)") }
      let one = row([.int(number)], cells)
      var alone = ListRowHTML(
        columns: columns, entity: "Invoice", rowSuffix: "",
        destinations: [nil, nil, "Vault & Co", nil])
      expected += alone.line(one)
      writer.append(one)
      if writer.pendingBytes >= 1_000 { lines += writer.takeRows() }
    }
    lines += writer.takeRows()
    #expect(writer.pendingBytes == 0)
    #expect(lines == expected)
    #expect(
      String(decoding: lines, as: UTF8.self).hasSuffix(
        "<tr><td><a href=\"/Invoice/300\">300&lt;0</a></td><td class=\"num\">300&lt;1</td>"
          + "<td><a href=\"/Vault%20%26%20Co/3002\">300&lt;2</a></td><td>300&lt;3</td></tr>\n"))
  }
}

extension ListRowHTML {
  /// `row`'s line alone.
  mutating func line(_ row: TableRow) -> [UInt8] {
    append(row)
    return takeRows()
  }
}
