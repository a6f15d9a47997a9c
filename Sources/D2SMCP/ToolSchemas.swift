import Components

/// The tools' definitions as `tools/list` gives them: input schemas whose `entity` is an enum
/// of the entities the user sees, and output schemas that every structured result validates
/// against.
struct ToolSchemas {
  let tools: AgentTools

  /// Every tool's definition (a JSON object's text).
  var all: [String] {
    let entity = property(
      "an entity: those the entities tool lists, or another a row refers to",
      ["enum": JSONText.array(tools.reachableEntityNames.map(JSONText.string))], type: "string")
    let key = (
      "key",
      JSONText.object([
        (
          "description",
          JSONText.string(
            "the row's primary key: 1, \"1,23\" for a key of two columns, or an array of its parts")
        ),
        (
          "type",
          JSONText.array(["string", "integer", "array"].map(JSONText.string))
        ),
      ])
    )
    let window = [
      ("where", property("a filter in D2S's qualifier grammar: title like 'A*' and length > 60")),
      ("order", property("an order: length desc, title")),
      (
        "limit",
        property(
          "rows to return, 1 to \(tools.maximumRows) (default \(tools.defaultRows))",
          ["minimum": "1", "maximum": "\(tools.maximumRows)"], type: "integer")
      ),
      ("after", property("the position a list's next gave: the window after it")),
      (
        "offset",
        property(
          "the number of the window's first row, from next", ["minimum": "0"], type: "integer")
      ),
    ]
    let values = property(
      "property names (as describe gives them) and their values: text as the page shows it (a formatter reads it), numbers, true/false, null",
      type: "object")
    let seen = property(
      "the values you read of the row (property names and values): the change is made only while the row still holds them",
      type: "object")
    let explaining =
      tools.context.mayExplain
      ? [
        tool(
          "why_not", "Why a rule did not decide a key's value, in the context given.",
          [
            ("rule", property("the rule's label (3, builtin:12)")),
            ("entity", entity), key,
            ("property", property("a property of the entity")),
            ("task", property("the page: list, inspect, edit")),
          ], required: ["rule"],
          output:
            #"{"type":"object","properties":{"rule":{"type":"string"},"explanation":{"type":"string"}},"required":["rule","explanation"]}"#,
          readOnly: true)
      ] : []
    return explaining + [
      tool(
        "entities", "The entities you may browse, with what you may do with each.", [],
        required: [], output: entitiesOutput, readOnly: true),
      tool(
        "describe", "An entity's properties as JSON Schema: labels, types, required, read-only.",
        [("entity", entity)], required: ["entity"], output: describeOutput, readOnly: true),
      tool(
        "list", "A window of an entity's rows, filtered and sorted; next gives the next window.",
        [("entity", entity)] + window, required: ["entity"], output: pageOutput, readOnly: true),
      tool(
        "inspect", "One row's page: its properties and relationships.",
        [("entity", entity), key], required: ["entity", "key"], output: pageOutput,
        readOnly: true),
      tool(
        "follow", "A relationship of one row: a to-many's rows (paged as list) or a to-one's page.",
        [("entity", entity), key, ("relationship", property("the relationship's name"))]
          + window, required: ["entity", "key", "relationship"], output: pageOutput,
        readOnly: true),
      tool(
        "edit", "Changes properties of one row, while it still holds what you saw.",
        [("entity", entity), key, ("values", values), ("seen", seen)],
        required: ["entity", "key", "values"], output: writeOutput(pageOutput), readOnly: false),
      tool(
        "new", "Makes a row with the values given.", [("entity", entity), ("values", values)],
        required: ["entity"], output: writeOutput(pageOutput), readOnly: false),
      tool(
        "delete", "Deletes one row, while it still holds what you saw.",
        [("entity", entity), key, ("seen", seen)], required: ["entity", "key"],
        output: writeOutput(deletedOutput), readOnly: false),
    ]
  }

  /// A property schema.
  func property(_ description: String, _ extra: [String: String] = [:], type: String = "string")
    -> String
  {
    JSONText.object(
      [("type", JSONText.string(type)), ("description", JSONText.string(description))]
        + extra.sorted { $0.key < $1.key })
  }

  func tool(
    _ name: String, _ description: String, _ properties: [(String, String)], required: [String],
    output: String, readOnly: Bool
  ) -> String {
    JSONText.object([
      ("name", JSONText.string(name)),
      ("description", JSONText.string(description)),
      (
        "inputSchema",
        JSONText.object([
          ("type", JSONText.string("object")), ("properties", JSONText.object(properties)),
          ("required", JSONText.array(required.map(JSONText.string))),
          ("additionalProperties", "false"),
        ])
      ),
      ("outputSchema", output),
      (
        "annotations",
        JSONText.object([
          ("readOnlyHint", readOnly ? "true" : "false"), ("openWorldHint", "false"),
        ])
      ),
    ])
  }

  /// Any JSON value.
  static let anything = "{}"

  /// A page as the JSON renderer writes it.
  var pageOutput: String {
    JSONText.object([
      ("type", JSONText.string("object")),
      (
        "properties",
        JSONText.object([
          ("page", #"{"type":"string"}"#), ("task", #"{"type":"string"}"#),
          ("entity", #"{"type":["string","null"]}"#), ("title", #"{"type":"string"}"#),
          ("columns", #"{"type":"array","items":{"type":"object"}}"#),
          (
            "rows",
            #"{"type":"array","items":{"type":"object","properties":{"key":{"type":"array"},"cells":{"type":"array"}},"required":["key","cells"]}}"#
          ),
          ("window", #"{"type":"object"}"#),
          (
            "total",
            #"{"type":"object","properties":{"value":{"type":"integer"},"kind":{"type":"string"}}}"#
          ),
          (
            "properties",
            #"{"type":"array","items":{"type":"object","properties":{"key":{"type":"string"},"label":{"type":"string"}},"required":["key","label"]}}"#
          ),
          ("sections", #"{"type":"array","items":{"type":"object"}}"#),
          ("lines", #"{"type":"array","items":{"type":"string"}}"#),
          ("actions", #"{"type":"array","items":{"type":"object"}}"#),
          (
            "next",
            #"{"type":["object","null"],"properties":{"after":{"type":"string"},"offset":{"type":"integer"}}}"#
          ),
        ])
      ),
      ("required", #"["page","task","title","actions"]"#),
    ])
  }

  /// A writing tool's result: what it did, or the proposal it made.
  func writeOutput(_ done: String) -> String {
    #"{"type":"object","anyOf":["# + done
      + #",{"type":"object","properties":{"proposal":{"type":"string"},"status":{"const":"proposed"},"kind":{"type":"string"},"entity":{"type":"string"},"message":{"type":"string"}},"required":["proposal","status","kind","entity"]}]}"#
  }

  var entitiesOutput: String {
    #"{"type":"object","properties":{"entities":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"label":{"type":"string"},"mayCreate":{"type":"boolean"},"writes":{"type":"string"}},"required":["name","label","mayCreate","writes"]}}},"required":["entities"]}"#
  }

  var describeOutput: String {
    #"{"type":"object","properties":{"entity":{"type":"string"},"key":{"type":"array","items":{"type":"string"}},"schema":{"type":"object"}},"required":["entity","key","schema"]}"#
  }

  var deletedOutput: String {
    #"{"type":"object","properties":{"deleted":{"type":"string"},"key":{"type":"array"}},"required":["deleted","key"]}"#
  }
}
