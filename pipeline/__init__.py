"""Answer plain-language questions over the ORKG with few-shot SPARQL generation (Taffa & Usbeck 2023)."""
