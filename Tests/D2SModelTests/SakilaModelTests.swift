import D2SModel
import Testing

@Suite struct SakilaModelTests {
  @Test(arguments: TestDatabase.available)
  func namesComeOutAsUpstreamUsesThem(kind: TestDatabase) throws {
    let model = try kind.open().model
    func relationship(_ entity: String, _ name: String) -> Relationship? {
      model.entity(named: entity)?.relationship(named: name)
    }
    #expect(relationship("Customer", "address")?.destinationName == "Address")
    #expect(relationship("Address", "customers")?.isToMany == true)
    #expect(relationship("Rental", "inventory")?.destinationName == "Inventory")
    #expect(relationship("Inventory", "film")?.destinationName == "Film")
    #expect(relationship("FilmActor", "actor")?.destinationName == "Actor")
    #expect(relationship("FilmActor", "film")?.destinationName == "Film")
    #expect(relationship("Film", "filmActors")?.destinationName == "FilmActor")
    #expect(
      relationship("Language", "films")?.joins == [.init(source: "id", destination: "languageId")])
    #expect(
      relationship("Language", "filmsAsOriginalLanguage")?.joins == [
        .init(source: "id", destination: "originalLanguageId")
      ])
    #expect(relationship("Film", "originalLanguage")?.isMandatory == false)
    #expect(relationship("Film", "language")?.isMandatory == true)
    #expect(relationship("Store", "managerStaff")?.destinationName == "Staff")
    #expect(relationship("Staff", "store")?.destinationName == "Store")
    #expect(relationship("Store", "staff")?.isToMany == true)
    #expect(relationship("Store", "inventories")?.isToMany == true)
    #expect(
      model.entity(named: "Customer")?.attribute(named: "lastName")?.columnName == "last_name")
    #expect(model.entity(named: "Film")?.attribute(named: "releaseYear") != nil)
    #expect(model.entity(named: "Film")?.attribute(named: "replacementCost")?.valueType == .decimal)
    for name in ["Actor", "Address", "Customer", "Film", "Rental", "Staff", "Store", "Language"] {
      #expect(model.entity(named: name)?.primaryKeyAttributeNames == ["id"], "\(name)")
    }
    #expect(model.entity(named: "FilmActor")?.primaryKeyAttributeNames == ["actorId", "filmId"])
  }

  @Test(arguments: TestDatabase.available)
  func tablesAndViews(kind: TestDatabase) throws {
    let model = try kind.open().model
    let views = model.entities.filter(\.isView).map(\.name).sorted()
    if kind == .sqlite {
      #expect(model.entities.count == 21)
      #expect(
        views == ["CustomerList", "FilmList", "SalesByFilmCategory", "SalesByStore", "StaffList"])
    } else {
      #expect(model.entities.count == 28)
      #expect(
        views == [
          "ActorInfo", "CustomerList", "FilmList", "NicerButSlowerFilmList", "SalesByFilmCategory",
          "SalesByStore", "StaffList",
        ])
      // Inheritance children without a primary key: listable, read-only.
      #expect(model.entity(named: "PaymentP200701")?.isReadOnly == true)
    }
    #expect(model.entity(named: "CustomerList")?.isReadOnly == true)
    #expect(
      model.entity(named: "CustomerList")?.attribute(named: "id")?.columnName
        == (kind == .sqlite ? "ID" : "id"))
    #expect(model.entity(named: "Actor")?.isReadOnly == false)
  }

  @Test(arguments: TestDatabase.available)
  func valueTypesFollowTheDeclaredTypes(kind: TestDatabase) throws {
    let model = try kind.open().model
    func type(_ entity: String, _ attribute: String) -> Attribute.ValueType? {
      model.entity(named: entity)?.attribute(named: attribute)?.valueType
    }
    #expect(type("Film", "description") == .string, "BLOB SUB_TYPE TEXT is text")
    #expect(type("Film", "rentalRate") == .decimal)
    #expect(type("Film", "lastUpdate") == .date)
    if kind == .sqlite {
      #expect(type("Customer", "active") == .string, "CHAR(1) is text")
      #expect(type("Staff", "active") == .int, "SMALLINT is an integer")
      #expect(model.entity(named: "Country")?.attribute(named: "lastUpdate")?.allowsNull == true)
    } else {
      #expect(type("Customer", "activebool") == .bool)
      #expect(type("Film", "rating") == .string, "an enum is text")
      #expect(type("Film", "releaseYear") == .int, "the year domain is its base type")
      #expect(type("Film", "specialFeatures") == .array)
      #expect(type("Film", "fulltext") == .string)
      #expect(model.entity(named: "Language")?.attribute(named: "name")?.isBlankPadded == true)
    }
    #expect(type("Staff", "picture") == .data)
    #expect(type("Customer", "createDate") == .date)
    #expect(model.entity(named: "Actor")?.attribute(named: "id")?.isAutoIncrement == true)
    #expect(model.entity(named: "Actor")?.attribute(named: "lastUpdate")?.allowsNull == false)
  }
}
