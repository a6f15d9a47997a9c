-- A job title beside first and last names (Chinook's Employee), and a self-reference without an id suffix.
CREATE TABLE "Employee" (
  "EmployeeId" INTEGER PRIMARY KEY,
  "LastName" VARCHAR(20) NOT NULL,
  "FirstName" VARCHAR(20) NOT NULL,
  "Title" VARCHAR(30),
  "ReportsTo" INTEGER REFERENCES "Employee" ("EmployeeId"),
  "Email" VARCHAR(60));
INSERT INTO "Employee" VALUES
  (1, 'Marlow', 'Edith', 'General Manager', NULL, 'edith@example.org'),
  (2, 'Quist', 'Arne', 'Sales Manager', 1, 'arne@example.org'),
  (3, 'Vale', 'Nora', 'Sales Support Agent', 2, 'nora@example.org');
