module example.com/brfixture

go 1.19
