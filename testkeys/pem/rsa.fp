2048 SHA256:+C/AdQlkhKaGfkiq1MdmXaRdcIto3pkkrp/+EODWjPk no comment (RSA)
