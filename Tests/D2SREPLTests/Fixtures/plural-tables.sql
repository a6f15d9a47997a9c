-- Table names in the plural (Northwind style), with <entity>Name columns.
CREATE TABLE "Categories" (
  "CategoryID" INTEGER PRIMARY KEY, "CategoryName" VARCHAR(15) NOT NULL, "Description" TEXT);
CREATE TABLE "Products" (
  "ProductID" INTEGER PRIMARY KEY,
  "ProductName" VARCHAR(40) NOT NULL,
  "QuantityPerUnit" VARCHAR(20),
  "CategoryID" INTEGER REFERENCES "Categories" ("CategoryID"),
  "UnitPrice" NUMERIC(10, 2));
INSERT INTO "Categories" VALUES (1, 'Teas', 'Leaves, blends and infusions'), (2, 'Preserves', 'Jams and marmalades');
INSERT INTO "Products" VALUES
  (1, 'Morning Mist', '20 bags', 1, 4.50), (2, 'Smoky Oolong', '100 g', 1, 7.25),
  (3, 'Quince Jelly', '250 g jar', 2, 3.80);
