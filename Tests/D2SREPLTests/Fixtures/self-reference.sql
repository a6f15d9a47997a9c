-- A self-reference: each employee's manager is an employee.
CREATE TABLE employees (
  id INTEGER PRIMARY KEY,
  full_name VARCHAR(80) NOT NULL,
  email VARCHAR(80),
  manager_id INTEGER REFERENCES employees (id));
INSERT INTO employees VALUES
  (1, 'Iris Calder', 'iris@example.org', NULL), (2, 'Tomas Brandt', 'tomas@example.org', 1),
  (3, 'Wren Okafor', 'wren@example.org', 1), (4, 'Jonah Pike', 'jonah@example.org', 2);
