import CDLogKit
print("cdlog")
