import Components

/// The query page of an entity (`/ENTITY/-/query`): a GET form, one labelled control per field
/// of its ``QueryForm``, that the server turns into the list's `where=`.
public enum QueryPage {
  /// The whole page: `values` fill the controls again (after an error, shown above them).
  public static func html(
    _ form: QueryForm, title: String, values: [(String, String)], error: String?,
    links: WebLinks
  ) -> String {
    func value(_ name: String) -> String { values.last { $0.0 == name }?.1 ?? "" }
    let output = StringOutput()
    HTMLRenderer.writeHead(
      title: title, databaseName: links.databaseName, user: links.userName, csrf: links.csrf,
      to: output)
    let path = WebLinks.entityPath(form.entity)
    var html = "<h1>\(HTML.escape(title))</h1>\n"
    if let error {
      html += "<p class=\"error\" role=\"alert\">\(HTML.escape(error))</p>\n"
    }
    html += "<form class=\"query\" method=\"get\" action=\"\(HTML.escape(path))/-/query\">\n"
    for (index, field) in form.fields.enumerated() {
      let id = "q\(index)"
      let label = HTML.escape(field.label)
      let name = HTML.escape(field.key)
      html += "<fieldset><legend>\(label)</legend>"
      switch field.control {
      case .text:
        html += "<label for=\"\(id)-op\">Match</label><select id=\"\(id)-op\" name=\"\(name).op\">"
        let chosen = value(field.key + ".op")
        for op in QueryForm.TextOperator.allCases {
          let selected = chosen == op.rawValue ? " selected" : ""
          html +=
            "<option value=\"\(HTML.escape(op.rawValue))\"\(selected)>\(HTML.escape(op.rawValue))</option>"
        }
        html += "</select>"
        html +=
          " <label for=\"\(id)\">Text</label><input id=\"\(id)\" name=\"\(name)\" value=\"\(HTML.formValue(value(field.key)))\">"
      case .range(let date):
        let type = date ? "date" : "text\" inputmode=\"decimal"
        for end in ["from", "to"] {
          html +=
            " <label for=\"\(id)-\(end)\">\(end == "from" ? "From" : "To")</label><input id=\"\(id)-\(end)\" type=\"\(type)\" name=\"\(name).\(end)\" value=\"\(HTML.formValue(value(field.key + "." + end)))\">"
        }
      case .choice(let choices):
        html += "<label for=\"\(id)\">Is</label><select id=\"\(id)\" name=\"\(name)\">"
        html += "<option value=\"\">(any)</option>"
        let chosen = value(field.key)
        for choice in choices {
          let selected = chosen == choice.literal ? " selected" : ""
          html +=
            "<option value=\"\(HTML.formValue(choice.literal))\"\(selected)>\(HTML.escape(choice.text))</option>"
        }
        html += "</select>"
      }
      html += "</fieldset>\n"
    }
    html +=
      "<p class=\"buttons\"><button type=\"submit\" name=\"run\" value=\"1\">Search</button> <a href=\"\(HTML.escape(path))\">All \(HTML.escape(form.entity))</a></p>\n</form>\n"
    html +=
      "<p class=\"hint\">The list shows what you ask for as a filter (<code>where</code>), which you can change there.</p>\n"
    output.write(html)
    HTMLRenderer.writeTail(to: output)
    return output.text
  }
}
