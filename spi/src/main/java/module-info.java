module dev.quiver.spi { exports dev.quiver.spi; }
