-- Names with spaces (Access style): "Order Details" keyed by its order and product, with more columns.
CREATE TABLE "Orders" ("Order ID" INTEGER PRIMARY KEY, "Ship Name" VARCHAR(40), "Order Date" TIMESTAMP);
CREATE TABLE "Products" ("Product ID" INTEGER PRIMARY KEY, "Product Name" VARCHAR(40) NOT NULL);
CREATE TABLE "Order Details" (
  "Order ID" INTEGER NOT NULL REFERENCES "Orders" ("Order ID"),
  "Product ID" INTEGER NOT NULL REFERENCES "Products" ("Product ID"),
  "Unit Price" NUMERIC(10, 2) NOT NULL,
  "Quantity" INTEGER NOT NULL,
  PRIMARY KEY ("Order ID", "Product ID"));
INSERT INTO "Orders" VALUES (1, 'Harbour Stores', '2021-03-01 09:30:00'), (2, 'Hill Farm Shop', '2021-03-02 14:00:00');
INSERT INTO "Products" VALUES (1, 'Oat Biscuits'), (2, 'Pear Cider');
INSERT INTO "Order Details" VALUES (1, 1, 2.10, 12), (1, 2, 3.40, 6), (2, 2, 3.40, 24);
