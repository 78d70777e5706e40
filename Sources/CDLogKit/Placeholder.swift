import CDLogCore
