import D2SModel
import D2STesting
import EnvKeys
import Testing

/// Objects are titled as a person would title them (the order of ``TitleAttributes``).
@Suite struct TitleTests {
  func title(_ sql: String, _ entity: String, _ key: DatabaseValue = .int(1)) throws -> String? {
    try TestDatabases.sqlite(sql).fetchObject(entity, primaryKey: [key])?.defaultTitle
  }

  @Test func aPersonByName() throws {
    #expect(
      try title(
        """
        CREATE TABLE "Employee" ("EmployeeId" INTEGER PRIMARY KEY, "LastName" TEXT, "FirstName" TEXT, "Title" TEXT);
        INSERT INTO "Employee" VALUES (1, 'Adams', 'Andrew', 'General Manager');
        """, "Employee") == "Andrew Adams")
    #expect(
      try title(
        """
        CREATE TABLE staff (staff_id INTEGER PRIMARY KEY, first_name TEXT, last_name TEXT, username TEXT);
        INSERT INTO staff VALUES (1, 'Mike', 'Hillyer', 'Mike');
        """, "Staff") == "Mike Hillyer")
  }

  @Test func aCompanyByItsNameNotItsContact() throws {
    #expect(
      try title(
        """
        CREATE TABLE "Suppliers" ("SupplierID" INTEGER PRIMARY KEY, "ContactTitle" TEXT, "ContactName" TEXT,
          "CompanyName" TEXT, "Address" TEXT);
        INSERT INTO "Suppliers" VALUES (1, 'Purchasing Manager', 'Charlotte Cooper', 'Exotic Liquids', '49 Gilbert St.');
        """, "Suppliers") == "Exotic Liquids")
  }

  @Test func theEntitysOwnName() throws {
    #expect(
      try title(
        """
        CREATE TABLE "Categories" ("CategoryID" INTEGER PRIMARY KEY, "Description" TEXT, "CategoryName" TEXT);
        INSERT INTO "Categories" VALUES (1, 'Soft drinks, coffees, teas', 'Beverages');
        """, "Categories") == "Beverages")
    #expect(
      try title(
        """
        CREATE TABLE album (id INTEGER PRIMARY KEY, code TEXT, album_name TEXT, title TEXT);
        INSERT INTO album VALUES (1, 'X1', 'Night Ferry', 'ignored');
        """, "Album") == "Night Ferry")
    #expect(
      try title(
        """
        CREATE TABLE address (address_id INTEGER PRIMARY KEY, address TEXT, district TEXT);
        INSERT INTO address VALUES (1, '47 MySakila Drive', 'Alberta');
        """, "Address") == "47 MySakila Drive")
  }

  @Test func nameBeforeTitleBeforeOtherText() throws {
    #expect(
      try title(
        """
        CREATE TABLE thing (id INTEGER PRIMARY KEY, email TEXT, product_code TEXT, title TEXT, display_name TEXT);
        INSERT INTO thing VALUES (1, 'a@b.c', 'P-1', 'A title', 'The name');
        """, "Thing") == "The name")
    #expect(
      try title(
        """
        CREATE TABLE film (film_id INTEGER PRIMARY KEY, description TEXT, title TEXT);
        INSERT INTO film VALUES (1, 'A dinosaur story', 'ACADEMY DINOSAUR');
        """, "Film") == "ACADEMY DINOSAUR")
    #expect(
      try title(
        """
        CREATE TABLE place (id INTEGER PRIMARY KEY, contact_person TEXT, phone TEXT, postal_code TEXT, address2 TEXT, city TEXT);
        INSERT INTO place VALUES (1, 'Ann', '555', 'AB1', 'Flat 2', 'Saltby');
        """, "Place") == "Saltby")
  }

  @Test func emptyChoicesFallBack() throws {
    let sql = """
      CREATE TABLE person (id INTEGER PRIMARY KEY, first_name TEXT, last_name TEXT, nickname TEXT);
      INSERT INTO person VALUES (1, ' ', NULL, 'Ziggy'), (2, NULL, NULL, NULL);
      """
    #expect(try title(sql, "Person") == "Ziggy")
    #expect(try title(sql, "Person", .int(2)) == "Person: 2")
  }
}
