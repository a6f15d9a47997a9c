import Testing

@testable import D2SModel

@Suite struct FancyfierTests {
  @Test(arguments: [
    ("film_actor", "FilmActor"), ("Order Details", "OrderDetails"), ("Album", "Album"),
    ("customer_list", "CustomerList"),
    ("CUSTOMERS", "Customers"),
  ])
  func entityNames(table: String, entity: String) {
    #expect(Fancyfier.entityName(table) == entity)
  }

  @Test(arguments: [
    ("last_name", "lastName"), ("FirstName", "firstName"), ("ArtistId", "artistId"),
    ("CustomerID", "customerID"),
    ("ID", "id"), ("SID", "sid"), ("release_year", "releaseYear"),
    ("replacement_cost", "replacementCost"),
    ("first name", "firstName"),
  ])
  func propertyNames(column: String, property: String) {
    #expect(Fancyfier.propertyName(column) == property)
  }

  @Test(arguments: [
    ("customer", "customers"), ("inventory", "inventories"), ("staff", "staff"),
    ("address", "addresses"),
    ("filmActor", "filmActors"), ("category", "categories"), ("day", "days"), ("box", "boxes"),
    // Already plural: left alone, never "productses".
    ("products", "products"), ("orderDetails", "orderDetails"), ("categories", "categories"),
    ("employees", "employees"),
    ("people", "people"), ("menus", "menus"), ("ideas", "ideas"), ("photos", "photos"),
    ("managerStaff", "managerStaff"),
    // …ss, …us, …is, …y and irregular-looking words.
    ("class", "classes"), ("status", "statuses"), ("campus", "campuses"), ("analysis", "analyses"),
    ("axis", "axes"),
    ("alias", "aliases"), ("key", "keys"), ("company", "companies"), ("person", "people"),
    ("salesPerson", "salesPeople"),
    ("child", "children"), ("criterion", "criteria"), ("shelf", "shelves"),
    ("metadata", "metadata"),
  ])
  func plurals(singular: String, plural: String) {
    #expect(Fancyfier.plural(singular) == plural)
  }

  @Test func singularCandidatesIncludeTheSingular() {
    #expect(Inflection.singularCandidates("Categories").contains("Category"))
    #expect(Inflection.singularCandidates("Products").contains("Product"))
    #expect(Inflection.singularCandidates("Addresses").contains("Address"))
    #expect(Inflection.singularCandidates("People").contains("Person"))
    #expect(Inflection.singularCandidates("Album") == ["Album"])
  }

  @Test func foreignKeysWithAndWithoutIdSuffixes() {
    let catalog = Catalog(tables: [
      Catalog.Table(
        name: "Employee",
        columns: [
          .init(name: "EmployeeId", externalType: "INTEGER", valueType: .int, allowsNull: false),
          .init(name: "ReportsTo", externalType: "INTEGER", valueType: .int, allowsNull: true),
          .init(name: "CustomerID", externalType: "INTEGER", valueType: .int, allowsNull: true),
          .init(name: "is_active", externalType: "INTEGER", valueType: .int, allowsNull: false),
        ],
        primaryKey: ["EmployeeId"],
        foreignKeys: [
          .init(
            columns: ["ReportsTo"], destinationTable: "Employee", destinationColumns: ["EmployeeId"]
          ),
          .init(
            columns: ["CustomerID"], destinationTable: "Customer",
            destinationColumns: ["CustomerId"]),
        ]),
      Catalog.Table(
        name: "Customer",
        columns: [
          .init(name: "CustomerId", externalType: "INTEGER", valueType: .int, allowsNull: false)
        ],
        primaryKey: ["CustomerId"], foreignKeys: []),
    ])
    let model = ModelBuilder.model(from: catalog)
    let employee = model.entity(named: "Employee")
    #expect(employee?.attributes.map(\.name) == ["id", "reportsToId", "customerID", "isActive"])
    #expect(employee?.attribute(named: "isActive")?.valueType == .bool)
    #expect(employee?.relationships.map(\.name) == ["reportsTo", "customer", "employees"])
    #expect(model.entity(named: "Customer")?.relationships.map(\.name) == ["employees"])
  }
}

/// The one-pass ASCII names against the word-by-word rule they stand for.
@Suite struct FancyfierASCIITests {
  @Test func asciiNamesMatchTheWordRuleForRandomNames() {
    for _ in 0..<2_000 {
      let name = RandomText.string(of: "abcXYZ019_ .-IDid", maximumLength: 12)
      let parts = Fancyfier.words(name)
      let property =
        parts.first.map {
          Fancyfier.lowerFirst($0) + parts.dropFirst().map(Fancyfier.capitalized).joined()
        }
        ?? "column"
      let entity = parts.isEmpty ? "Table" : parts.map(Fancyfier.capitalized).joined()
      #expect(Fancyfier.propertyName(name) == property, "propertyName of '\(name)'")
      #expect(Fancyfier.entityName(name) == entity, "entityName of '\(name)'")
    }
  }

  @Test func firstLetterCasesMatchTheCharacterRule() {
    // A lone combining mark joins the letter before it (`Z` + U+0301 is one Character).
    let alphabet = ["a", "z", "Z", "0", "_", " ", "É", "é", "\u{301}", "İ", "ß"]
    for _ in 0..<2_000 {
      let word = RandomText.string(from: alphabet, maximumLength: 6)
      let lowered = word.first.map { $0.lowercased() + word.dropFirst() } ?? word
      let capitalized = word.first.map { $0.uppercased() + word.dropFirst() } ?? word
      #expect(Fancyfier.lowerFirst(word) == lowered, "lowerFirst of '\(word)'")
      #expect(Fancyfier.capitalized(word) == capitalized, "capitalized of '\(word)'")
    }
  }
}
