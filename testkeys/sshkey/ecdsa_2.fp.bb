xucad-senuz-helic-cyroh-nanad-hozaf-nypar-ruvym-tegub-rabip-kaxox
