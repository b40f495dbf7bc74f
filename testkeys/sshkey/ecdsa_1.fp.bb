xebal-norar-tyges-hunep-rasut-notip-gurod-reryr-vapig-mehit-saxix
