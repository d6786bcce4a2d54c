module cuzk.test/c1json

go 1.19
