#!/usr/bin/env python3
"""Draws media/icon.png (the extension's marketplace icon, 128x128) from media/icon.svg with headless Chromium."""
import os
import tempfile

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

here = os.path.dirname(os.path.abspath(__file__))
media = os.path.join(here, '..', '..', 'media')
page = os.path.join(tempfile.mkdtemp(prefix='taskls-icon-'), 'icon.html')
with open(page, 'w') as f:
    f.write('<body style="margin:0;background:transparent"><img id="i" width="128" height="128" src="file://%s"></body>'
            % os.path.abspath(os.path.join(media, 'icon.svg')))
options = webdriver.ChromeOptions()
options.binary_location = '/usr/bin/chromium'
for flag in ('--headless=new', '--no-sandbox', '--disable-gpu', '--force-device-scale-factor=1'):
    options.add_argument(flag)
driver = webdriver.Chrome(service=Service('/usr/bin/chromedriver'), options=options)
try:
    driver.get('file://' + page)
    driver.execute_cdp_cmd('Emulation.setDefaultBackgroundColorOverride', {'color': {'r': 0, 'g': 0, 'b': 0, 'a': 0}})
    driver.find_element('id', 'i').screenshot(os.path.join(media, 'icon.png'))
finally:
    driver.quit()
