-- Natural keys keep their names; only surrogate keys become `id`.
CREATE TABLE product (sku VARCHAR(12) PRIMARY KEY, name VARCHAR(40) NOT NULL);
CREATE TABLE tag (tag VARCHAR(20) PRIMARY KEY);
CREATE TABLE invoice (invoice_no VARCHAR(12) PRIMARY KEY, customer VARCHAR(40) NOT NULL);
CREATE TABLE order_item (
  id INTEGER PRIMARY KEY,
  product_sku VARCHAR(12) NOT NULL REFERENCES product (sku),
  invoice_no VARCHAR(12) NOT NULL REFERENCES invoice (invoice_no),
  qty INTEGER NOT NULL);
CREATE TABLE "Employees" ("EmployeeID" INTEGER PRIMARY KEY, "FullName" VARCHAR(40) NOT NULL);
INSERT INTO product VALUES ('P-100', 'Lantern'), ('P-200', 'Compass');
INSERT INTO tag VALUES ('outdoor'), ('sale');
INSERT INTO invoice VALUES ('INV-1', 'Harbour Stores');
INSERT INTO order_item VALUES (1, 'P-100', 'INV-1', 3), (2, 'P-200', 'INV-1', 1);
INSERT INTO "Employees" VALUES (1, 'Iris Calder');
