-- A company with a contact person (Northwind's Suppliers): titled by the company, not the contact.
CREATE TABLE suppliers (
  supplier_id INTEGER PRIMARY KEY,
  contact_name VARCHAR(30),
  contact_title VARCHAR(30),
  company_name VARCHAR(40) NOT NULL,
  address VARCHAR(60),
  phone VARCHAR(24));
CREATE TABLE shipments (
  id INTEGER PRIMARY KEY,
  supplier_id INTEGER NOT NULL REFERENCES suppliers (supplier_id),
  reference_code VARCHAR(12) NOT NULL,
  shipped_on DATE);
INSERT INTO suppliers VALUES
  (1, 'Mara Lindqvist', 'Purchasing Manager', 'Fjord Provisions', '4 Quay Road', '555-0101'),
  (2, 'Olu Adebayo', 'Sales Representative', 'Savanna Spice Traders', '12 Market Lane', '555-0102');
INSERT INTO shipments VALUES (1, 1, 'FP-0001', '2022-05-01'), (2, 1, 'FP-0002', '2022-06-01'), (3, 2, 'SS-0001', '2022-05-15');
